import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { deletedFilesTable, deletedTodosTable } from "../db/trash-schema";
import {
  fileLinksTable,
  filesTable,
  orgStorageUsageTable,
  storageReservationsTable,
  storageUsageTable,
} from "../db/files-schema";
import { chatsTable } from "../db/chats-schema";
import { notesTable } from "../db/notes-schema";
import { auditLogTable } from "../db/audit-schema";
import {
  orgTodoCountsTable,
  todoAttachmentsTable,
  todoCountsTable,
  todosTable,
  uploadPartsTable,
  uploadsTable,
} from "../db/schema";
import {
  idempotencyKeysTable,
  orgTodoSyncFloorsTable,
  todoChangesTable,
  todoSyncFloorsTable,
} from "../db/sync-schema";
import { aiUsageTable } from "../db/usage-schema";

/**
 * How a workspace's rows are found in a table: by `userId` (personal workspaces only), by `orgId` (teams
 * only), by either (personal rows have no orgId; a team's rows may name the member who wrote them), or
 * through the parent row they belong to.
 */
export type OwnerScope =
  | { by: "user" }
  | { by: "org" }
  | { by: "userOrOrg" }
  | { by: "parent"; column: string; parent: string; parentKey: string };

export interface MovedTable {
  name: string;
  columns: readonly string[];
  primaryKey: readonly string[];
  scope: OwnerScope;
  /** Kept by triggers from another table (counts, usage): fenced through that table. */
  derived: boolean;
  /** Ids handed out by AUTOINCREMENT (src/shards/id-blocks.ts). */
  autoIncrement: boolean;
  /** The table a pass copies in full before this one: its parent, or what it counts. */
  after: string | null;
}

function moved(table: SQLiteTable, scope: OwnerScope, counts?: SQLiteTable): MovedTable {
  const config = getTableConfig(table);
  const single = config.columns.filter((c) => c.primary).map((c) => c.name);
  const composite = config.primaryKeys[0]?.columns.map((c) => c.name) ?? [];
  return {
    name: config.name,
    columns: config.columns.map((c) => c.name),
    primaryKey: single.length > 0 ? single : composite,
    scope,
    derived: counts !== undefined,
    after: counts ? getTableConfig(counts).name : scope.by === "parent" ? scope.parent : null,
    autoIncrement: config.columns.some((c) => c.primary && "autoIncrement" in c && c.autoIncrement === true),
  };
}

const USER = { by: "user" } as const;
const ORG = { by: "org" } as const;
const EITHER = { by: "userOrOrg" } as const;
const child = (column: string, parent: SQLiteTable): OwnerScope => ({
  by: "parent",
  column,
  parent: getTableConfig(parent).name,
  parentKey: "id",
});

/**
 * Every table holding a workspace's data, parents before their children and counters after what they
 * count: the order a copy writes them in (a pass copies a table once what it comes `after` is complete). Not here: rows with no owner (pending erasures and agent
 * wipes, queued work of subjects already deleted).
 */
export const MOVED_TABLES: readonly MovedTable[] = [
  moved(todosTable, EITHER),
  moved(todoAttachmentsTable, child("todoId", todosTable)),
  moved(todoChangesTable, EITHER),
  moved(todoCountsTable, USER, todosTable),
  moved(orgTodoCountsTable, ORG, todosTable),
  moved(todoSyncFloorsTable, USER),
  moved(orgTodoSyncFloorsTable, ORG),
  moved(deletedTodosTable, EITHER),
  moved(filesTable, EITHER),
  moved(fileLinksTable, child("fileId", filesTable)),
  moved(storageUsageTable, USER, filesTable),
  moved(orgStorageUsageTable, ORG, filesTable),
  moved(storageReservationsTable, EITHER),
  moved(deletedFilesTable, EITHER),
  moved(uploadsTable, EITHER),
  moved(uploadPartsTable, child("uploadId", uploadsTable)),
  moved(idempotencyKeysTable, USER),
  moved(chatsTable, USER),
  moved(aiUsageTable, USER),
  moved(notesTable, USER),
  moved(auditLogTable, ORG),
];

/** The tables holding the change log and counters: a delete of their base rows writes to them again. */
const WRITTEN_BY_TRIGGERS = new Set([
  "todo_changes_table",
  ...MOVED_TABLES.filter((t) => t.derived).map((t) => t.name),
]);

/**
 * The order the source's rows are deleted in after a switch: children before parents (no cascade to
 * count on), and the change log and counters last, after the deletes whose triggers write to them.
 */
export const CLEANUP_ORDER: readonly MovedTable[] = [
  ...MOVED_TABLES.filter((t) => !WRITTEN_BY_TRIGGERS.has(t.name)).toReversed(),
  ...MOVED_TABLES.filter((t) => WRITTEN_BY_TRIGGERS.has(t.name)),
];
