// Runs in the Durable Object: the todo version each reminder was last brought in step with. Each write
// syncs its todo's reminder after its answer, so two writes' syncs may arrive in either order.

export class ReminderVersions {
  private tableReady = false;

  constructor(private readonly sql: SqlStorage) {}

  /** True, and recorded, when `version` is newer than the last version applied for the todo. */
  advance(todoId: number, version: number): boolean {
    if (!this.tableReady) {
      this.sql.exec(
        "CREATE TABLE IF NOT EXISTS todo_reminder_versions (todo_id INTEGER PRIMARY KEY, version INTEGER NOT NULL)",
      );
      this.tableReady = true;
    }
    const cursor = this.sql.exec(
      "INSERT INTO todo_reminder_versions (todo_id, version) VALUES (?, ?) ON CONFLICT (todo_id) " +
        "DO UPDATE SET version = excluded.version WHERE excluded.version > todo_reminder_versions.version",
      todoId,
      version,
    );
    return cursor.rowsWritten > 0;
  }
}
