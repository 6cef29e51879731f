// A workspace's data (a user's personal data or a team's), in its data database (DB_SHARD_<n>, or the
// directory for workspaces made before shards). drizzle.shards.config.ts generates migrations/shards/ from
// this list. No foreign keys to the directory's tables: erasure removes a subject's rows explicitly.
export {
  todosTable,
  todoCountsTable,
  orgTodoCountsTable,
  todoAttachmentsTable,
  uploadsTable,
  uploadPartsTable,
} from "./schema";
export {
  filesTable,
  storageUsageTable,
  orgStorageUsageTable,
  storageReservationsTable,
  fileLinksTable,
  pendingErasuresTable,
} from "./files-schema";
export {
  todoChangesTable,
  todoSyncFloorsTable,
  orgTodoSyncFloorsTable,
  idempotencyKeysTable,
} from "./sync-schema";
export { chatsTable, pendingAgentWipesTable } from "./chats-schema";
export { aiUsageTable } from "./usage-schema";
export { deletedTodosTable, deletedFilesTable } from "./trash-schema";
export { notesTable } from "./notes-schema";
// A team's audit (orgId rows).
export { auditLogTable } from "./audit-schema";
// A moving workspace's fence (src/shards/).
export { workspaceFencesTable } from "./fences-schema";
// Members' roles, copied from the directory for checks inside a team's statements (src/orgs/team-role-copies.ts).
export { teamRolesTable } from "./team-roles-schema";
