// Runs in the chat Durable Object, loaded on its first transcript change: keeps its row of the index.
import type { UIMessage } from "ai";
import { ownerIdFromChatName } from "../auth/chat-names";
import { agentsRequireAuth } from "../core/config";
import { createLogger, type Logger } from "../core/logger";
import type { Db } from "../db/client";
import { openDatabases } from "../db/databases";
import { isChatId } from "./chat-ids";
import { chatDb } from "./chat-places";
import { messageText } from "./chat-text";
import { summarize, summaryKey } from "./chat-summary";
import * as queries from "./chats.queries";
import type { TitleCall } from "./chat-titles";
import { insertUsage } from "../usage/usage.queries";
import { utcDay } from "../usage/usage-days";

/**
 * How an instance relates to the index: a chat id is indexed from its creation; a `user-<id>[-<suffix>]`
 * chat enters it on its first change, with sign-in on (in public mode anyone reaches it, so it is
 * nobody's); any other name is a public chat outside the index.
 */
type IndexEntry = { kind: "indexed" } | { kind: "adopted"; owner: number };

function entryOf(env: Env, name: string): IndexEntry | null {
  if (isChatId(name)) return { kind: "indexed" };
  const owner = agentsRequireAuth(env) ? ownerIdFromChatName(name) : null;
  return owner === null ? null : { kind: "adopted", owner };
}

/** The chat's index row, kept in step with its transcript; one per ChatAgent instance. */
export class ChatIndexSync {
  private readonly entry: IndexEntry | null;
  private readonly logger: Logger;
  // Writes run one after another, each with the transcript as it is when it runs: the last one wins.
  private writes: Promise<void> = Promise.resolve();
  private writtenKey: string | undefined;
  private titled = false;
  private titling: Promise<string | null> | undefined;

  constructor(
    private readonly env: Env,
    private readonly name: string,
  ) {
    this.entry = entryOf(env, name);
    this.logger = createLogger({ agent: "chat-agent", chat: name }, env.LOG_LEVEL);
  }

  /**
   * After a change of the transcript: its summary (count, preview, times) to the index, when it
   * differs. False when a chat id has no row any more (deleted): its agent then wipes itself.
   */
  noteChange(transcript: () => UIMessage[]): Promise<boolean> {
    if (!this.entry) return Promise.resolve(true);
    const write = this.writes.then(() => this.write(transcript()));
    this.writes = write.then(() => undefined);
    return write;
  }

  /**
   * The data database holding this chat's row, read again for each write (a workspace may move while its
   * agent lives); null when its owner is gone.
   */
  private db(): Promise<Db | null> {
    return chatDb(openDatabases(this.env), this.name);
  }

  private async write(messages: UIMessage[]): Promise<boolean> {
    const key = summaryKey(messages);
    if (key === this.writtenKey) return true;
    const summary = summarize(messages, new Date().toISOString());
    try {
      const db = await this.db();
      if (!db) {
        this.logger.warn("chat_index_owner_gone");
        return false;
      }
      if (this.entry?.kind === "adopted") {
        await queries.adoptChat(db, this.name, this.entry.owner, summary);
      } else if (!(await queries.updateSummary(db, this.name, summary))) {
        this.logger.warn("chat_index_row_gone");
        return false;
      }
      this.writtenKey = key;
    } catch (err) {
      // The transcript stands; the next change writes the summary again.
      this.logger.error("chat_index_write_failed", { error: String(err) });
    }
    return true;
  }

  /** Whether a turn's end should ask for a title: false once this instance knows it is titled. */
  mayNeedTitle(): boolean {
    return this.entry !== null && !this.titled && !this.titling;
  }

  /**
   * After an answered turn: an untitled chat gets the title of that exchange (`answerId` and the question
   * before it), once. Returns the title it set, or null (titled already, renamed meanwhile, not in the
   * index, an answer without text). A failure or an answer without text is retried after the next turn.
   */
  titleAfterTurn(messages: UIMessage[], answerId: string): Promise<string | null> {
    if (!this.entry || this.titled || this.titling) return Promise.resolve(null);
    this.titling = this.title(messages, answerId)
      .catch((err: unknown) => {
        this.logger.error("chat_title_write_failed", { error: String(err) });
        return null;
      })
      .finally(() => {
        this.titling = undefined;
      });
    return this.titling;
  }

  private async title(messages: UIMessage[], answerId: string): Promise<string | null> {
    const at = messages.findIndex((m) => m.id === answerId && m.role === "assistant");
    const answer = at >= 0 ? messageText(messages[at]!) : "";
    const question = messages.slice(0, Math.max(at, 0)).findLast((m) => m.role === "user");
    // A tool call awaiting approval answers with no text yet: the turn after it titles the chat.
    if (!answer || !question) return null;
    await this.writes;
    const db = await this.db();
    if (!db) return null;
    const row = await queries.titleOf(db, this.name);
    if (!row) return null;
    if (row.title !== null) {
      this.titled = true;
      return null;
    }
    const { titleFor } = await import("./chat-titles");
    const title = await titleFor(
      this.env,
      { name: this.name, question: messageText(question), answer },
      this.logger,
      (call) => this.billTitle(db, row.userId, call),
    );
    const set = await queries.setTitleIfUntitled(db, this.name, title);
    this.titled = true;
    return set ? title : null;
  }

  // A title is a model call of its owner's: on their usage and their day's budget.
  private async billTitle(db: Db, owner: number, call: TitleCall): Promise<void> {
    try {
      await insertUsage(db, [
        { ...call, userId: owner, chatId: this.name, kind: "title", day: utcDay(new Date()) },
      ]);
    } catch (err) {
      this.logger.error("chat_usage_write_failed", { owner, call, error: String(err) });
    }
  }
}
