// Loaded with the first model call: the AI SDK's calls, each traced as OpenTelemetry GenAI spans
// (`invoke_agent`, `chat {model}`, `execute_tool {name}`) with token usage, through the Agents SDK's
// observability module. Prompts, answers and tool arguments stay off the spans (its store options are
// off by default). Spans are recorded only where the invocation is traced: Workers Observability with
// traces on (wrangler.jsonc), or a streaming tail worker locally.
import { generateText as generate, streamText as stream, wrapLanguageModel } from "ai";
import { wrapAISDK } from "agents/observability/ai";

// Only what is used, not the namespace: the rest of the AI SDK stays out of the bundle. The wrapper
// wraps each model with `wrapLanguageModel` for its `chat {model}` spans.
export const { generateText, streamText } = wrapAISDK({
  generateText: generate,
  streamText: stream,
  wrapLanguageModel,
});

/** What names an agent's calls on its spans: `gen_ai.agent.name` and `gen_ai.conversation.id`. */
export const spanContext = (agentName: string, conversationId: string) => ({ agentName, conversationId });
