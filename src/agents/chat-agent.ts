// Runs in the Durable Object: one ChatAgent instance per chat name.
import { AIChatAgent, type OnChatMessageOptions } from "@cloudflare/ai-chat";
import type { Connection, ConnectionContext } from "agents";
import { errorBody } from "../http/errors";
import { closedSubAgentRoute } from "./agent-paths";
import { DailyTokenLedger, rememberCaller } from "./chat-limits";
import { ReminderVersions } from "./reminder-versions";
import { reminderMessage, type ReminderPayload } from "../todos/reminders";

// The platform's WebSocket message cap; enforced here too so local dev and tests behave the same.
export const MAX_FRAME_BYTES = 1024 * 1024;

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
    // The model, tools and AI SDK streaming load on the first turn, not in every new isolate.
    const { runChatTurn } = await import("./chat-turn");
    return runChatTurn(
      {
        env: this.env,
        name: this.name,
        messages: this.messages,
        ledger: this.ledger,
        waitUntil: (promise) => this.ctx.waitUntil(promise),
      },
      options,
    );
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

  private reminderVersions?: ReminderVersions;

  /**
   * RPC from the todo writes (src/todos/reminders.ts): the todo's reminder becomes exactly `reminder`
   * (none when null) as of the todo's `version`; a call for an older or the same version changes nothing.
   */
  async setTodoReminder(todoId: number, reminder: ReminderPayload | null, version: number): Promise<void> {
    this.reminderVersions ??= new ReminderVersions(this.ctx.storage.sql);
    if (!this.reminderVersions.advance(todoId, version)) return;
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
