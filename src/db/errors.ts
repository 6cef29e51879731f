/** The `table.column` a SQLite UNIQUE constraint failure names, or null for any other error. */
export function uniqueViolation(err: unknown): string | null {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const match = /UNIQUE constraint failed: ([\w.]+)/.exec(e.message);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** Whether a write failed on a FOREIGN KEY constraint: the row it points to is gone. */
export function foreignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}
