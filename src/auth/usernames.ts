import { Failure } from "../core/failures";
import { uniqueViolation } from "../db/errors";

/** The lookup key behind the case- and width-insensitive UNIQUE index on usernames. */
export function usernameKey(username: string): string {
  return username.normalize("NFKC").toLowerCase();
}

/** A username or email another account already has. */
export class UserConflictError extends Failure {
  readonly kind = "conflict";

  constructor(readonly field: "username" | "email" | undefined) {
    super(field ? `A user with this ${field} already exists` : "User already exists");
    this.name = "UserConflictError";
  }
}

const CONFLICT_FIELDS: Record<string, "username" | "email"> = {
  "users_table.usernameKey": "username",
  "users_table.email": "email",
};

/** The write's UNIQUE failure as a UserConflictError; any other error is returned unchanged. */
export function asUserConflict(err: unknown): unknown {
  const column = uniqueViolation(err);
  return column ? new UserConflictError(CONFLICT_FIELDS[column]) : err;
}
