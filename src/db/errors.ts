/** The `table.column` a failed SQLite constraint of `kind` names, searching the error's causes. */
function failedConstraint(err: unknown, kind: "UNIQUE" | "NOT NULL" | "CHECK"): string | null {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const match = new RegExp(`${kind} constraint failed: ([\\w.]+)`).exec(e.message);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** The `table.column` a SQLite UNIQUE constraint failure names, or null for any other error. */
export const uniqueViolation = (err: unknown) => failedConstraint(err, "UNIQUE");

/** The `table.column` a SQLite NOT NULL constraint failure names, or null for any other error. */
export const notNullViolation = (err: unknown) => failedConstraint(err, "NOT NULL");

/** The name of the CHECK constraint a SQLite failure names, or null for any other error. */
export const checkViolation = (err: unknown) => failedConstraint(err, "CHECK");

/** Whether a write failed on a FOREIGN KEY constraint: the row it points to is gone. */
export function foreignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}

/** Whether a write hit the fence of a workspace moving to another database (src/db/fences-schema.ts). */
export function workspaceFenced(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("workspace_fenced")) return true;
  }
  return false;
}
