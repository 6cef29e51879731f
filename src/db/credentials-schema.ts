import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
  "chats:read",
  "chats:write",
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

export const EMAIL_LINK_PURPOSES = ["verify", "change"] as const;
export type EmailLinkPurpose = (typeof EMAIL_LINK_PURPOSES)[number];

/**
 * A one-time link e-mailed to `email`: "verify" proves the account's own address, "change" the
 * address it asked to move to. Only the token's SHA-256 is stored.
 */
export const emailLinksTable = sqliteTable(
  "email_links_table",
  {
    tokenHash: text().primaryKey(),
    userId: owner(),
    purpose: text({ enum: EMAIL_LINK_PURPOSES }).notNull(),
    email: text().notNull(),
    createdAt: text().notNull().default(NOW),
    expiresAt: text().notNull(),
    usedAt: text(),
  },
  (t) => [index("email_links_user_idx").on(t.userId)],
);

/** How a passkey's authenticator keeps it: on one device, or synced (iCloud Keychain, Google Password Manager). */
export const PASSKEY_DEVICE_TYPES = ["singleDevice", "multiDevice"] as const;

/** A WebAuthn credential (passkey) registered by its user: its public key, never a secret. */
export const passkeysTable = sqliteTable(
  "passkeys_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: owner(),
    // base64url, as the authenticator returns it (up to 1,023 bytes).
    credentialId: text().notNull(),
    // The COSE public key, base64url.
    publicKey: text().notNull(),
    // The user handle the authenticator stores with the credential, base64url: sign-in checks it.
    userHandle: text().notNull(),
    // The authenticator's signature counter (0 for authenticators that do not count).
    counter: integer().notNull().default(0),
    transports: text({ mode: "json" }).notNull().$type<string[]>(),
    deviceType: text({ enum: PASSKEY_DEVICE_TYPES }).notNull(),
    backedUp: integer({ mode: "boolean" }).notNull(),
    name: text().notNull(),
    createdAt: text().notNull().default(NOW),
    lastUsedAt: text(),
  },
  (t) => [
    uniqueIndex("passkeys_credential_id_unique").on(t.credentialId),
    index("passkeys_user_idx").on(t.userId, t.id),
  ],
);

/**
 * Challenges a passkey ceremony has used, kept until they would have expired anyway: a challenge is
 * signed, not stored, when it is issued (so anonymous sign-in options write nothing), and recorded here
 * in the same batch as the registration or sign-in it completes, so it works once.
 */
export const usedPasskeyChallengesTable = sqliteTable(
  "used_passkey_challenges_table",
  {
    challenge: text().primaryKey(),
    expiresAt: text().notNull(),
  },
  (t) => [index("used_passkey_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * Connect tickets already used to open a socket, kept until they would have expired anyway: a ticket
 * is signed, not stored, when it is issued, and recorded here when a socket opens with it, so it opens
 * one socket, once.
 */
export const usedTicketsTable = sqliteTable(
  "used_tickets_table",
  {
    // The ticket's `jti` claim (a random UUID).
    id: text().primaryKey(),
    expiresAt: text().notNull(),
  },
  (t) => [index("used_tickets_expires_idx").on(t.expiresAt)],
);

/**
 * Where a user's credential-opened sockets are: one row per (user, agent, instance) holding at least
 * one, written by the instance when a socket opens and removed when its user's last socket there
 * closes. Every path that ends a credential asks each listed instance to re-check its sockets
 * (src/agents/socket-sweep.ts). No FK to the user: an account's delete still finds its rows.
 */
export const agentSocketsTable = sqliteTable(
  "agent_sockets_table",
  {
    userId: integer().notNull(),
    // The route segment: counter-agent, chat-agent or todo-feed-agent.
    agent: text().notNull(),
    name: text().notNull(),
    openedAt: text().notNull().default(NOW),
  },
  (t) => [primaryKey({ columns: [t.userId, t.agent, t.name] })],
);
