// Each data database hands out AUTOINCREMENT ids from its own range, DB_SHARD_<n> from (n + 1) * 2^40 (the
// directory's legacy tables from 1), so an id names one row across every database: a route finds a todo by
// id in whichever shard holds it, and a workspace moved to another shard keeps its ids. Run once on a new
// shard after its migrations (npm run db:migrate, deploy, the tests' setup); running it again changes nothing.

export const SHARD_ID_SPAN = 2 ** 40;

/** The data tables whose ids SQLite's AUTOINCREMENT hands out (migrations/shards). */
export const AUTOINCREMENT_TABLES = [
  "todos_table",
  "todo_attachments_table",
  "todo_changes_table",
  "files_table",
  "pending_erasures_table",
  "pending_agent_wipes_table",
  "ai_usage_table",
  "notes_table",
  "audit_log_table",
];

/** The shard number of a binding named DB_SHARD_<n>, or null. */
export function shardNumber(binding) {
  const match = /^DB_SHARD_(\d+)$/.exec(binding);
  return match ? Number(match[1]) : null;
}

/** SQL statements that start each table's ids at the shard's range, unless they are past it already. */
export function shardSequenceStatements(n) {
  const base = (n + 1) * SHARD_ID_SPAN;
  return AUTOINCREMENT_TABLES.flatMap((table) => [
    `INSERT INTO sqlite_sequence (name, seq) SELECT '${table}', ${base} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${table}')`,
    `UPDATE sqlite_sequence SET seq = ${base} WHERE name = '${table}' AND seq < ${base}`,
  ]);
}
