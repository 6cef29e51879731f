// Runs in both: the Worker gate states which credential opened a socket; the agent keeps it.
// zod itself, not @hono/zod-openapi's: loaded at every agent's start-up (see src/auth/tokens.ts).
import { z } from "zod";
import type { AuthUser, Credential } from "../auth/credentials";
import type { CredentialIdentity } from "../auth/credential-liveness";

/** Set by the Worker gate on a request it authenticated: the credential, as JSON (never its secret). */
export const CREDENTIAL_HEADER = "x-agent-credential";

const UserId = z.number().int().positive();
const SocketCredentialSchema = z.discriminatedUnion("kind", [
  z.object({ userId: UserId, kind: z.literal("session"), sessionId: z.string().max(64) }),
  z.object({ userId: UserId, kind: z.literal("api_key"), keyId: z.number().int().positive() }),
  z.object({ userId: UserId, kind: z.literal("token"), tokenVersion: z.number().int().nonnegative() }),
]);

/** The identity of the credential `user` authenticated with. */
export function socketCredential(user: AuthUser, credential: Credential): CredentialIdentity {
  if (credential.kind === "session")
    return { userId: user.id, kind: "session", sessionId: credential.sessionId };
  if (credential.kind === "api_key") return { userId: user.id, kind: "api_key", keyId: credential.keyId };
  return { userId: user.id, kind: "token", tokenVersion: user.tokenVersion };
}

/** The credential the gate stated on `request`, or null (a socket opened without one: a public counter or chat). */
export function statedCredential(request: Request): CredentialIdentity | null {
  const value = request.headers.get(CREDENTIAL_HEADER);
  if (value === null) return null;
  try {
    const parsed = SocketCredentialSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
