import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NOW, usersTable } from "./schema";

// Credentials a user holds besides the password: sign-in sessions with their refresh tokens, API keys
// and password-reset links. Secrets are never stored, only their SHA-256 (hex); every row goes with
// its user by FK cascade.

/** What an API key may do; a JWT from a sign-in may do everything. */
export const API_KEY_SCOPES = [
  "todos:read",
  "todos:write",
  "files:read",
  "files:write",
  "agents:connect",
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const owner = () =>
  integer()
    .notNull()
    .references(() => usersTable.id, { onDelete: "cascade", onUpdate: "cascade" });

/** One sign-in (a device or browser): the family of refresh tokens that rotate from it. */
export const sessionsTable = sqliteTable(
  "sessions_table",
  {
    // Random UUID, carried as `sid` in the session's JWTs.
    id: text().primaryKey(),
    userId: owner(),
    userAgent: text(),
    createdAt: text().notNull().default(NOW),
    // The sign-in or the last refresh.
    lastUsedAt: text().notNull().default(NOW),
    // Absolute end, whatever the use.
    expiresAt: text().notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId, t.lastUsedAt)],
);

/** Every refresh token a session has had: the current one (rotatedAt null) and the spent ones, to detect reuse. */
export const refreshTokensTable = sqliteTable(
  "refresh_tokens_table",
  {
    tokenHash: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessionsTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
    createdAt: text().notNull().default(NOW),
    rotatedAt: text(),
  },
  (t) => [index("refresh_tokens_session_idx").on(t.sessionId)],
);

export const apiKeysTable = sqliteTable(
  "api_keys_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: owner(),
    name: text().notNull(),
    keyHash: text().notNull(),
    // Shown in lists so people can tell their keys apart; the rest of the secret is gone.
    lastFour: text().notNull(),
    scopes: text({ mode: "json" }).notNull().$type<ApiKeyScope[]>(),
    createdAt: text().notNull().default(NOW),
    lastUsedAt: text(),
    expiresAt: text(),
    revokedAt: text(),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash), index("api_keys_user_idx").on(t.userId, t.id)],
);

/** A password-reset link: one use, short-lived. */
export const passwordResetsTable = sqliteTable(
  "password_resets_table",
  {
    tokenHash: text().primaryKey(),
    userId: owner(),
    createdAt: text().notNull().default(NOW),
    expiresAt: text().notNull(),
    usedAt: text(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);
