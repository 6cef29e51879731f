// Runs in the Durable Object: one chat turn (limits, model, tools). Loaded on the first turn, so a
// Durable Object that only serves transcripts, reminders or RPC never builds the model and tool set.
import type { OnChatMessageOptions } from "@cloudflare/ai-chat";
import { getCurrentAgent } from "agents";
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  isStepCount,
  type UIMessage,
} from "ai";
import { ToolError } from "../core/tools";
import { createLogger, type Logger } from "../core/logger";
import { AiUnavailableError, classifyAiError } from "../ai/ai-errors";
import { spanContext, streamText } from "../ai/traced-ai";
import { fitContext } from "./chat-context";
import { TURN_REFUSALS, type TurnRefusal } from "./chat-limits";
import { chatTools, TOOLS_PROMPT } from "./chat-tools";
import { openTurnAccount, type TurnPayer } from "./turn-account";
import { resolveFileParts } from "./chat-files";
import { connectionOrigin } from "./file-parts";
import { socketCredentialOf } from "./socket-guard";

const SYSTEM_PROMPT = "You are a helpful assistant. Think step by step, then answer clearly and concisely.";
// Reasoning models spend many tokens thinking before the first word of the answer: one model call's bound.
const MAX_OUTPUT_TOKENS = 8_192;
// A turn may read, then act, then answer; bounded so a confused model cannot loop on tools. A turn's
// calls together spend at most MAX_TOOL_STEPS x MAX_OUTPUT_TOKENS (40,960), and no more than the day has left.
const MAX_TOOL_STEPS = 5;

/** What the client sees when a turn or tool fails: actionable for missing AI, generic otherwise (no internals). */
export function chatErrorMessage(err: unknown): string {
  // A tool's own failure ("Todo not found") is meant for the user and the model.
  if (err instanceof ToolError) return err.message;
  const classified = classifyAiError(err);
  return classified instanceof AiUnavailableError
    ? classified.message
    : "The model failed to answer. Try again.";
}

/** A turn answered by one error chunk in the chat stream, without a model call. */
function errorTurn(errorText: string): Response {
  const stream = createUIMessageStream({
    execute: ({ writer }) => writer.write({ type: "error", errorText }),
  });
  return createUIMessageStreamResponse({ stream });
}

/** The answer to a refused turn. */
function refusedTurn(refusal: TurnRefusal, logger: Logger): Response {
  logger.warn("chat_turn_refused", { refusal });
  return errorTurn(TURN_REFUSALS[refusal]);
}

/** The chat instance a turn answers for. */
export interface ChatTurnHost extends TurnPayer {
  messages: UIMessage[];
  /** The agent's waitUntil: work that outlives a tool's answer (a todo write's publish). */
  waitUntil: (promise: Promise<unknown>) => void;
}

/** One turn: admitted by the spend limits, then the model's answer streamed as UI message chunks. */
export async function runChatTurn(chat: ChatTurnHost, options?: OnChatMessageOptions): Promise<Response> {
  const { env } = chat;
  const logger = createLogger({ agent: "chat-agent", chat: chat.name }, env.LOG_LEVEL);
  // Budget, limits, models and metering: src/agents/turn-account.ts.
  const account = await openTurnAccount(chat, logger, MAX_OUTPUT_TOKENS);
  if (!account.ok) return refusedTurn(account.refusal, logger);
  const { meter, owner } = account;
  const { connection } = getCurrentAgent();
  const credential = connection ? socketCredentialOf(connection) : null;
  const tools = chatTools(env, owner, logger, chat.waitUntil, credential);
  // File parts (src/agents/chat-files.ts): read as the chat's owner, or the turn ends here.
  const origin = connectionOrigin(connection);
  const files = await resolveFileParts(chat.messages, { env, owner, origin, logger });
  if (!files.ok) return errorTurn(files.message);
  const messages = fitContext(await convertToModelMessages(files.messages, { tools }));
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      const result = streamText({
        model: account.model(),
        system: tools ? `${SYSTEM_PROMPT} ${TOOLS_PROMPT}` : SYSTEM_PROMPT,
        messages,
        maxOutputTokens: account.maxOutputTokens,
        // Each later step asks for what the turn's earlier steps left of the day's budget, and none starts
        // once it is spent: a budget is exceeded by at most what one call spends past its max_tokens.
        prepareStep: () => ({
          maxOutputTokens: Math.max(
            1,
            Math.min(MAX_OUTPUT_TOKENS, account.outputTokensLeft - meter.outputTokens),
          ),
        }),
        tools,
        stopWhen: [isStepCount(MAX_TOOL_STEPS), () => meter.outputTokens >= account.outputTokensLeft],
        maxRetries: 0,
        abortSignal: options?.abortSignal,
        runtimeContext: spanContext("chat-agent", chat.name),
        onChunk: meter.onChunk,
        onStepEnd: meter.onStepEnd,
        onStepError: meter.onStopped,
        onAbort: meter.onStopped,
        onError: meter.onStopped,
      });
      writer.merge(
        result.toUIMessageStream({
          sendReasoning: true,
          onError: chatErrorMessage,
          messageMetadata: meter.messageMetadata,
        }),
      );
    },
    // Also catches a model stream that breaks mid-answer: the client gets an error chunk, not internals.
    onError: (error) => {
      logger.error("chat_model_error", { error: String(error) });
      return chatErrorMessage(error);
    },
  });
  return createUIMessageStreamResponse({ stream });
}
