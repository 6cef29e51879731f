import { verify } from "hono/jwt";

// Swap for the shared verifier in src/services/tokens.ts once it lands; same rules as /api.
const MIN_SECRET_BYTES = 32;

/** Verifies an HS256 JWT the way /api does: pinned algorithm, `exp` and `iat` required. Never throws. */
export async function verifyAgentToken(token: string, secret: string | undefined): Promise<boolean> {
  if (!secret || new TextEncoder().encode(secret).length < MIN_SECRET_BYTES) return false;
  try {
    const payload = await verify(token, secret, "HS256");
    return Number.isFinite(payload.exp) && Number.isFinite(payload.iat);
  } catch {
    return false;
  }
}

/** The bearer token from `Authorization`, or for a WebSocket upgrade (browsers cannot set headers) `?token=`. */
export function agentToken(request: Request, isWebSocket: boolean): string | undefined {
  const parts = request.headers.get("Authorization")?.trim().split(/\s+/);
  if (parts?.length === 2 && parts[0]!.toLowerCase() === "bearer") return parts[1];
  if (isWebSocket) return new URL(request.url).searchParams.get("token") ?? undefined;
  return undefined;
}
