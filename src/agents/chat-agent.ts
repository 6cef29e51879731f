// Runs in the Durable Object: one ChatAgent instance per chat name.
import { AIChatAgent, type OnChatMessageOptions } from "@cloudflare/ai-chat";
import { getCurrentAgent, type Connection, type ConnectionContext } from "agents";
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  isStepCount,
  streamText,
} from "ai";
import { ToolError } from "../ai/todo-tools";
import { errorBody } from "../http/errors";
import { createLogger } from "../core/logger";
import { AiUnavailableError, classifyAiError } from "../ai/ai-errors";
import { chatModel } from "../ai/models";
import { closedSubAgentRoute } from "./agent-paths";
import { fitContext } from "./chat-context";
import { admitTurn, DailyTokenLedger, refusedTurn, rememberCaller, TurnMeter } from "./chat-limits";
import { chatTools, TOOLS_PROMPT } from "./chat-tools";
import { reminderMessage, type ReminderPayload } from "../todos/reminders";

const SYSTEM_PROMPT = "You are a helpful assistant. Think step by step, then answer clearly and concisely.";
// Reasoning models spend many tokens thinking before the first word of the answer.
const MAX_OUTPUT_TOKENS = 8_192;
// A turn may read, then act, then answer; bounded so a confused model cannot loop on tools.
const MAX_TOOL_STEPS = 5;
// The platform's WebSocket message cap; enforced here too so local dev and tests behave the same.
export const MAX_FRAME_BYTES = 1024 * 1024;

/** What the client sees when a turn or tool fails: actionable for missing AI, generic otherwise (no internals). */
export function chatErrorMessage(err: unknown): string {
  // A tool's own failure ("Todo not found") is meant for the user and the model.
  if (err instanceof ToolError) return err.message;
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
    const logger = createLogger({ agent: "chat-agent", chat: this.name }, this.env.LOG_LEVEL);
    if (!admission.ok) return refusedTurn(admission.refusal, logger);
    const meter = new TurnMeter(this.ledger);
    const tools = chatTools(this.env, this.name, logger);
    const messages = fitContext(await convertToModelMessages(this.messages, { tools }));
    const env = this.env;
    const stream = createUIMessageStream({
      execute: ({ writer }) => {
        const result = streamText({
          model: chatModel(env).model,
          system: tools ? `${SYSTEM_PROMPT} ${TOOLS_PROMPT}` : SYSTEM_PROMPT,
          messages,
          maxOutputTokens: admission.maxOutputTokens,
          tools,
          stopWhen: isStepCount(MAX_TOOL_STEPS),
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
        logger.error("chat_model_error", { error: String(error) });
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
    return Response.json(errorBody("Not found"), { status: 404 });
  }

  /**
   * RPC from the todo writes (src/todos/reminders.ts): the todo's reminder becomes exactly `reminder`
   * (none when null), so repeating a call changes nothing.
   */
  async setTodoReminder(todoId: number, reminder: ReminderPayload | null): Promise<void> {
    for (const s of await this.listSchedules({ type: "scheduled" })) {
      const payload = s.payload as Partial<ReminderPayload> | undefined;
      if (s.callback === "sendTodoReminder" && payload?.todoId === todoId) await this.cancelSchedule(s.id);
    }
    if (reminder) await this.schedule(new Date(reminder.scheduleAt), "sendTodoReminder", reminder);
  }

  /** A fired reminder: added to the transcript, which also pushes it to every open client. */
  async sendTodoReminder(reminder: ReminderPayload): Promise<void> {
    await this.persistMessages([...this.messages, reminderMessage(reminder)]);
  }

  /** For other Workers over a Durable Object binding: proves the agent runs without spending a model call. */
  async healthCheck(): Promise<Response> {
    return new Response("OK", { status: 200, headers: { "Content-Type": "text/plain" } });
  }
}
