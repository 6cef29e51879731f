// Runs in the Durable Object: the change log (D1) as a user's live feed reads it, from its own cursor.
import type { Owner } from "../core/owner";
import type { TodoChangeRow } from "../todos/todo-changes.queries";
import { eventOfChange, type TodoEvent } from "../todos/todo-events";

// The change-log id up to which the feed has read (storage.kv, beside its events).
const CURSOR = "todo-feed:log-cursor";
// todo_changes_table (src/db/sync-schema.ts) in plain SQL: this module loads with every Durable Object
// isolate, and drizzle with the schema modules would move into chunks shared with the HTTP app
// (scripts/build-worker.mjs), for one statement.
const latestChanges = (column: "userId" | "orgId") =>
  `SELECT id, todoId, kind, version FROM todo_changes_table WHERE ${column} = ? AND id > ? ORDER BY id DESC LIMIT ?`;
const LATEST_CHANGES = { user: latestChanges("userId"), org: latestChanges("orgId") };

export interface LogRead {
  /** Oldest first. */
  events: TodoEvent[];
  /** False on the feed's first read: it may already keep some of these, taken before it read the log. */
  hadCursor: boolean;
  /** Stores the cursor past these events, once they are kept. */
  done(): void;
}

/**
 * The user's or team's changes committed since the last read, at most the newest `limit`; null when
 * none. A team's events name it (`orgId`).
 */
export async function readLog(
  db: D1Database,
  kv: SyncKvStorage,
  owner: Owner,
  limit: number,
): Promise<LogRead | null> {
  const cursor = kv.get<number>(CURSOR);
  const { results } = await db
    .prepare(LATEST_CHANGES[owner.kind])
    .bind(owner.kind === "user" ? owner.userId : owner.orgId, cursor ?? 0, limit)
    .all<Pick<TodoChangeRow, "id" | "todoId" | "kind" | "version">>();
  if (results.length === 0) return null;
  const named = owner.kind === "org" ? { orgId: owner.orgId } : {};
  return {
    events: results.toReversed().map((change) => ({ ...eventOfChange(change), ...named })),
    hadCursor: cursor !== undefined,
    done: () => kv.put(CURSOR, results[0]!.id),
  };
}
