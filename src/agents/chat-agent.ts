// Runs in the Durable Object: one ChatAgent instance per chat name.
import { AIChatAgent, type OnChatMessageOptions } from "@cloudflare/ai-chat";
import type { Connection, ConnectionContext } from "agents";
import type { ChatResponseResult } from "agents/chat";
import type { UIMessage } from "ai";
import type { ChatIndexSync } from "../chats/chat-index-sync";
import { aiDemo } from "../core/config";
import { errorBody } from "../http/errors";
import { closedSubAgentRoute } from "./agent-paths";
import { destroyAndReset } from "../core/agent-reset";
import { DailyTokenLedger, rememberCaller } from "./chat-limits";
import { ReminderVersions } from "./reminder-versions";
import { reminderMessage, type ReminderPayload } from "../todos/reminders";
import { rememberOrigin, withoutOversizeData } from "./file-parts";
import { closeForDelete, SocketGuard } from "./socket-guard";

// The platform's WebSocket message cap; enforced here too so local dev and tests behave the same.
export const MAX_FRAME_BYTES = 1024 * 1024;

/** What a chat's open sockets receive when the chat gets its title from its first exchange. */
export interface ChatTitleFrame {
  type: "chat_title";
  title: string;
}

/** What a chat's sockets receive on connect while the offline demo model answers (AI_DEMO=true). */
export interface ChatModelFrame {
  type: "chat_model";
  demo: true;
}

/** Streaming chat over WebSocket; messages persist per instance and a reconnecting client resumes the stream. */
export class ChatAgent extends AIChatAgent<Env> {
  // Storage bound per instance; the model sees a smaller window (fitContext).
  maxPersistedMessages = 200;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // AIChatAgent installs its handler in its constructor, so the size guard wraps it here.
    const handle = this.onMessage.bind(this);
    this.onMessage = async (connection, message) => {
      const bytes =
        typeof message === "string" ? new TextEncoder().encode(message).byteLength : message.byteLength;
      if (bytes > MAX_FRAME_BYTES) return connection.close(1009, "Message too big");
      // Nothing a socket sends (a turn, a tool approval) is acted on once its credential has ended.
      if (!(await this.sockets.admit(connection))) return;
      // Any frame may change the transcript (a turn, a tool approval, a clear): the index follows.
      return Promise.resolve(handle(connection, message)).finally(() => this.noteTranscriptChange());
    };
  }

  // --- Sockets end with their credential (src/agents/socket-guard.ts).
  private guard?: SocketGuard;

  private get sockets(): SocketGuard {
    this.guard ??= new SocketGuard({
      agent: "chat-agent",
      name: this.name,
      env: this.env,
      ctx: this.ctx,
      getConnections: () => this.getConnections(),
      scheduleCheck: (at) =>
        this.schedule(at, "closeEndedSockets", { at: at.getTime() }, { idempotent: true }),
    });
    return this.guard;
  }

  async onClose(connection: Connection, code: number, reason: string, wasClean: boolean) {
    this.sockets.closed(connection);
    return super.onClose(connection, code, reason, wasClean);
  }

  /** RPC from a credential-ending write (src/agents/socket-sweep.ts): answers how many sockets closed. */
  async recheckSockets(userId: number): Promise<number> {
    return this.sockets.recheck(userId);
  }

  /** Scheduled at a socket's credential's end. */
  async closeEndedSockets(): Promise<void> {
    await this.sockets.closeEnded();
  }
  // --- end of socket credentials

  // --- The chat index (src/chats): its row follows the transcript; the first exchange titles it.
  private indexOfInstance?: Promise<ChatIndexSync>;

  private index(): Promise<ChatIndexSync> {
    this.indexOfInstance ??= import("../chats/chat-index-sync").then(
      ({ ChatIndexSync }) => new ChatIndexSync(this.env, this.name),
    );
    return this.indexOfInstance;
  }

  // Off the turn's path: the index write never delays a model call or the end of a stream. A chat id
  // whose row is gone was deleted (reached through a stale gate lookup): nothing of it may stay.
  private noteTranscriptChange(): void {
    const noted = this.index().then(async (index) => {
      if (!(await index.noteChange(() => this.messages))) await this.wipe();
    });
    this.ctx.waitUntil(noted);
  }

  async persistMessages(
    messages: UIMessage[],
    excludeBroadcastIds?: string[],
    options?: { _deleteStaleRows?: boolean },
  ): Promise<void> {
    await super.persistMessages(messages, excludeBroadcastIds, options);
    this.noteTranscriptChange();
  }

  // The turn's invocation has ended by now: the title is made in one of its own (an alarm), where its
  // model call is traced like a turn's (src/ai/traced-ai.ts). Only while the chat may be untitled, and
  // only after an answer: a failed or stopped turn ("no model", a refusal) never names the chat.
  protected async onChatResponse(result: ChatResponseResult): Promise<void> {
    if (result.status !== "completed" || !(await this.index()).mayNeedTitle()) return;
    await this.schedule(0, "titleChat", { answerId: result.message.id }, { idempotent: true });
  }

  /** Scheduled after an answered turn: the title of that exchange, told to the chat's open sockets. */
  async titleChat({ answerId }: { answerId?: string }): Promise<void> {
    if (answerId === undefined) return;
    const title = await (await this.index()).titleAfterTurn(this.messages, answerId);
    if (title !== null)
      this.broadcast(JSON.stringify({ type: "chat_title", title } satisfies ChatTitleFrame));
  }
  // --- end of the chat index

  // --- Spend limits (src/agents/chat-limits.ts): who calls, and the instance's daily token budget.
  private ledgerOfInstance?: DailyTokenLedger;

  private get ledger(): DailyTokenLedger {
    this.ledgerOfInstance ??= new DailyTokenLedger(this.ctx.storage.sql);
    return this.ledgerOfInstance;
  }

  async onConnect(connection: Connection, ctx: ConnectionContext) {
    rememberCaller(connection, ctx.request);
    rememberOrigin(connection, ctx.request);
    this.sockets.opened(connection, ctx.request);
    // A client can say so before the first turn: answers come from a script, not from AI.
    if (aiDemo(this.env))
      connection.send(JSON.stringify({ type: "chat_model", demo: true } satisfies ChatModelFrame));
    return super.onConnect(connection, ctx);
  }
  // --- end of spend limits

  // Files travel by reference (src/agents/file-parts.ts): a data: URL over the bound is stored without its bytes.
  protected sanitizeMessageForPersistence(message: UIMessage): UIMessage {
    return withoutOversizeData(message);
  }

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

  /**
   * RPC from a chat's or user's delete (src/chats/agent-wipes.ts): every message, schedule (reminders
   * included), alarm and stored state of this instance goes, and its sockets close (4410,
   * src/agents/socket-guard.ts). Idempotent. The call
   * ends in the object's reset (src/core/agent-reset.ts).
   */
  async wipe(): Promise<void> {
    await closeForDelete(this.getConnections());
    await destroyAndReset(this.ctx, () => this.destroy());
  }

  /** RPC from ChatsService (src/rpc/chats-service.ts), once it checked the chat is its user's. */
  async transcript(): Promise<UIMessage[]> {
    return this.messages;
  }

  /** For other Workers over a Durable Object binding: proves the agent runs without spending a model call. */
  async healthCheck(): Promise<Response> {
    return new Response("OK", { status: 200, headers: { "Content-Type": "text/plain" } });
  }
}
