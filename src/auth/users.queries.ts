import { count, eq, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import type { ShardName } from "../db/shard-names";
import { insertWorkspace } from "../db/workspaces.queries";
import { NOW, userCredentialsTable, usersTable } from "../db/schema";
import { endSessions, endSessionsOnRoleChange } from "./sessions/sessions.queries";

export type UserRow = typeof usersTable.$inferSelect;
export type NewUser = Omit<typeof usersTable.$inferInsert, "id" | "createdAt" | "updatedAt">;

/**
 * The user, their password hash and their personal workspace (on the emptiest of `shards`) in one batch,
 * so no user ever exists without credentials. A UNIQUE violation (username key or email) rejects the whole batch.
 */
export async function insertUserWithPassword(
  db: Db,
  user: NewUser,
  passwordHash: string,
  shards: readonly ShardName[],
): Promise<UserRow> {
  const userId = sql`(SELECT ${usersTable.id} FROM ${usersTable} WHERE ${usersTable.usernameKey} = ${user.usernameKey})`;
  const [inserted] = await db.batch([
    db.insert(usersTable).values(user).returning(),
    db.insert(userCredentialsTable).select(
      db
        .select({
          userId: usersTable.id,
          passwordHash: sql<string>`${passwordHash}`.as("passwordHash"),
          updatedAt: usersTable.updatedAt,
        })
        .from(usersTable)
        .where(eq(usersTable.usernameKey, user.usernameKey)),
    ),
    insertWorkspace(db, { userIdSql: userId }, shards),
  ]);
  return inserted[0] as UserRow;
}

export async function findLoginByUsernameKey(db: Db, key: string) {
  const [row] = await db
    .select({
      id: usersTable.id,
      username: usersTable.username,
      tokenVersion: usersTable.tokenVersion,
      grantVersion: usersTable.grantVersion,
      passwordHash: userCredentialsTable.passwordHash,
    })
    .from(usersTable)
    .innerJoin(userCredentialsTable, eq(userCredentialsTable.userId, usersTable.id))
    .where(eq(usersTable.usernameKey, key))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(usersTable).where(eq(usersTable.id, id)).limit(1);
  return row ?? null;
}

export async function findPasswordHash(db: Db, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ passwordHash: userCredentialsTable.passwordHash })
    .from(userCredentialsTable)
    .where(eq(userCredentialsTable.userId, userId))
    .limit(1);
  return row?.passwordHash ?? null;
}

/** One page of users by id; of `onlyId` alone when given (what a user who is not an admin may list). */
export async function listUsers(db: Db, offset: number, limit: number, onlyId?: number) {
  const where = onlyId === undefined ? undefined : eq(usersTable.id, onlyId);
  const [items, [total]] = await db.batch([
    db.select().from(usersTable).where(where).orderBy(usersTable.id).limit(limit).offset(offset),
    db.select({ value: count() }).from(usersTable).where(where),
  ]);
  return { items, total: total?.value ?? 0 };
}

/**
 * The token version after an update: one up when the password changes or the role becomes a
 * different one (evaluated on the row being updated, so a same-role write revokes nothing).
 */
function nextTokenVersion(role: NewUser["role"], passwordChanged: boolean): SQL | undefined {
  const version = usersTable.tokenVersion;
  if (passwordChanged) return sql`${version} + 1`;
  if (role === undefined) return undefined;
  return sql`CASE WHEN ${usersTable.role} = ${role} THEN ${version} ELSE ${version} + 1 END`;
}

export interface PasswordChange {
  hash: string;
  /** The session that made the change and stays signed in (your own change); absent: every session ends. */
  keepSession?: string;
  /** The account trail's entry, written in the change's batch after the new hash. */
  audit?: BatchItem<"sqlite">;
}

/**
 * Profile changes and an optional new password, applied together or not at all. A new password ends
 * the user's sessions (all but `keepSession`), a new role all of them; both also revoke every token
 * without a session (see nextTokenVersion).
 */
export async function updateUser(
  db: Db,
  id: number,
  changes: Partial<NewUser>,
  password?: PasswordChange,
): Promise<UserRow | null> {
  const tokenVersion = nextTokenVersion(changes.role, password !== undefined);
  const profile = db
    .update(usersTable)
    .set({ ...changes, ...(tokenVersion && { tokenVersion }), updatedAt: NOW })
    .where(eq(usersTable.id, id))
    .returning();
  // Before the profile update: the role check reads the role as it was.
  const endByRole = changes.role === undefined ? [] : [endSessionsOnRoleChange(db, id, changes.role)];
  const endByPassword = password === undefined ? [] : [endSessions(db, id, password.keepSession)];
  const credentials =
    password === undefined
      ? []
      : [
          db
            .update(userCredentialsTable)
            .set({ passwordHash: password.hash, updatedAt: NOW })
            .where(eq(userCredentialsTable.userId, id)),
          ...(password.audit ? [password.audit] : []),
        ];
  const statements: BatchItem<"sqlite">[] = [...endByRole, ...endByPassword, profile, ...credentials];
  const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const [row] = results[endByRole.length + endByPassword.length] as UserRow[];
  return row ?? null;
}

/**
 * Deletes the user; credentials, sessions, API keys, todos, attachment metadata and file records go
 * with it by FK cascade. `before` runs first in the same batch (it may still read the rows the cascade removes).
 */
export async function deleteUser(db: Db, id: number, before: BatchItem<"sqlite">[] = []): Promise<boolean> {
  const remove = db.delete(usersTable).where(eq(usersTable.id, id)).returning({ id: usersTable.id });
  const [first, ...rest]: BatchItem<"sqlite">[] = [...before, remove];
  const results = await db.batch([first!, ...rest]);
  return (results.at(-1) as { id: number }[]).length > 0;
}
