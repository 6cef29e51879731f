import { bearerToken } from "../middleware/require-auth";
import { jwtSecret, verifyToken } from "../services/tokens";

/**
 * Verifies a token by the same rules as /api (src/services/tokens.ts). A missing or weak
 * JWT_SECRET throws, so the gate fails closed with a generic 500.
 */
export async function verifyAgentToken(token: string, env: Pick<Env, "JWT_SECRET">): Promise<boolean> {
  return (await verifyToken(jwtSecret(env), token)) !== null;
}

/** The bearer token from `Authorization`, or for a WebSocket upgrade (browsers cannot set headers) `?token=`. */
export function agentToken(request: Request, isWebSocket: boolean): string | undefined {
  const fromHeader = bearerToken(request.headers.get("Authorization") ?? undefined);
  if (fromHeader) return fromHeader;
  if (isWebSocket) return new URL(request.url).searchParams.get("token") ?? undefined;
  return undefined;
}
