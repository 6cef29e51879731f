import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeysTable } from "../db/credentials-schema";
import type { AuthFailure } from "./authenticate";
import { findAuthUserById, findKeyHolder, findSessionHolder } from "./auth-user.queries";

/** A credential by its identity, without its secret: what an open socket keeps of the one it opened with. */
export type CredentialIdentity =
  | { userId: number; kind: "session"; sessionId: string }
  | { userId: number; kind: "api_key"; keyId: number }
  | { userId: number; kind: "token"; tokenVersion: number };

/** Whether a credential still holds, and until when (ms since the epoch; null: no fixed end). */
export type Liveness = { live: true; endsAt: number | null } | { live: false; reason: AuthFailure };

const ended = (reason: AuthFailure): Liveness => ({ live: false, reason });

/**
 * The checks of authenticateClaims() for a credential already accepted once, read from D1 now and never
 * from the lookup cache: a socket asks this after every credential-ending write, so it must not see
 * what another isolate cached before the write.
 */
export async function credentialLiveness(
  db: Db,
  credential: CredentialIdentity,
  now = Date.now(),
): Promise<Liveness> {
  const { userId } = credential;
  if (credential.kind === "session") {
    const holder = await findSessionHolder(db, userId, credential.sessionId);
    if (!holder) return ended("user_gone");
    const endsAt = holder.sessionExpiresAt === null ? null : Date.parse(holder.sessionExpiresAt);
    return endsAt === null || endsAt <= now ? ended("session_ended") : { live: true, endsAt };
  }
  if (credential.kind === "api_key") {
    const where = and(eq(apiKeysTable.id, credential.keyId), eq(apiKeysTable.userId, userId));
    const holder = await findKeyHolder(db, where);
    // Keys are deleted only with their user.
    if (!holder) return ended("user_gone");
    if (holder.key.revokedAt !== null) return ended("key_revoked");
    const endsAt = holder.key.expiresAt === null ? null : Date.parse(holder.key.expiresAt);
    return endsAt !== null && endsAt <= now ? ended("key_expired") : { live: true, endsAt };
  }
  const user = await findAuthUserById(db, userId);
  if (!user) return ended("user_gone");
  return user.tokenVersion === credential.tokenVersion
    ? { live: true, endsAt: null }
    : ended("token_revoked");
}
