import { AIChatAgent, type OnChatMessageOptions } from "@cloudflare/ai-chat";
import { getCurrentAgent, type Connection, type ConnectionContext } from "agents";
import { convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse, streamText } from "ai";
import { AiUnavailableError, chatModel, classifyAiError } from "../services/ai-models";
import { closedSubAgentRoute } from "./agent-paths";
import { fitContext } from "./chat-context";
import { admitTurn, DailyTokenLedger, refusedTurn, rememberCaller, TurnMeter } from "./chat-limits";

const SYSTEM_PROMPT = "You are a helpful assistant. Think step by step, then answer clearly and concisely.";
// Reasoning models spend many tokens thinking before the first word of the answer.
const MAX_OUTPUT_TOKENS = 8_192;
// The platform's WebSocket message cap; enforced here too so local dev and tests behave the same.
export const MAX_FRAME_BYTES = 1024 * 1024;

/** What the client sees when a turn fails: actionable for missing AI, generic otherwise (no internals). */
export function chatErrorMessage(err: unknown): string {
  const classified = classifyAiError(err);
  return classified instanceof AiUnavailableError
    ? classified.message
    : "The model failed to answer. Try again.";
}

/** Streaming chat over WebSocket; messages persist per instance and a reconnecting client resumes the stream. */
export class ChatAgent extends AIChatAgent<Env> {
  // Storage bound per instance; the model sees a smaller window (fitContext).
  maxPersistedMessages = 200;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // AIChatAgent installs its handler in its constructor, so the size guard wraps it here.
    const handle = this.onMessage.bind(this);
    this.onMessage = (connection, message) => {
      const bytes =
        typeof message === "string" ? new TextEncoder().encode(message).byteLength : message.byteLength;
      if (bytes > MAX_FRAME_BYTES) return connection.close(1009, "Message too big");
      return handle(connection, message);
    };
  }

  // --- Spend limits (src/agents/chat-limits.ts): who calls, and the instance's daily token budget.
  private ledgerOfInstance?: DailyTokenLedger;

  private get ledger(): DailyTokenLedger {
    this.ledgerOfInstance ??= new DailyTokenLedger(this.ctx.storage.sql);
    return this.ledgerOfInstance;
  }

  async onConnect(connection: Connection, ctx: ConnectionContext) {
    rememberCaller(connection, ctx.request);
    return super.onConnect(connection, ctx);
  }
  // --- end of spend limits

  async onChatMessage(_onFinish: unknown, options?: OnChatMessageOptions): Promise<Response> {
    const admission = await admitTurn(this.env, {
      instance: this.name,
      connection: getCurrentAgent().connection,
      ledger: this.ledger,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    });
    if (!admission.ok) return refusedTurn(admission.refusal);
    const meter = new TurnMeter(this.ledger);
    const messages = fitContext(await convertToModelMessages(this.messages));
    const env = this.env;
    const stream = createUIMessageStream({
      execute: ({ writer }) => {
        const result = streamText({
          model: chatModel(env).model,
          system: SYSTEM_PROMPT,
          messages,
          maxOutputTokens: admission.maxOutputTokens,
          maxRetries: 0,
          abortSignal: options?.abortSignal,
          onChunk: meter.onChunk,
          onEnd: meter.onEnd,
          onAbort: meter.onStopped,
          onError: meter.onStopped,
        });
        writer.merge(result.toUIMessageStream({ sendReasoning: true, onError: chatErrorMessage }));
      },
      // Also catches a model stream that breaks mid-answer: the client gets an error chunk, not internals.
      onError: (error) => {
        console.error(JSON.stringify({ level: "error", event: "chat_model_error", error: String(error) }));
        return chatErrorMessage(error);
      },
    });
    return createUIMessageStreamResponse({ stream });
  }

  // Clients change nothing but the chat itself: a state push (`cf_agent_state`) is refused, as on CounterAgent.
  validateStateChange(_next: unknown, source: Connection | "server"): void {
    if (source !== "server") throw new Error("State is read-only");
  }

  // The SDK's sub-agent routing (`/sub/<agent>/<name>`) would create child instances: closed.
  async onBeforeSubAgent(): Promise<Response> {
    return closedSubAgentRoute();
  }

  /** Plain HTTP has no chat handler; the transcript (`/get-messages`) is served by AIChatAgent itself. */
  async onRequest(): Promise<Response> {
    return Response.json({ success: false, error: { message: "Not found" } }, { status: 404 });
  }

  /** For other Workers over a Durable Object binding: proves the agent runs without spending a model call. */
  async healthCheck(): Promise<Response> {
    return new Response("OK", { status: 200, headers: { "Content-Type": "text/plain" } });
  }
}
