import { authenticate, type AuthResult } from "../auth/authenticate";
import { bearerToken } from "../auth/bearer";

/** The bearer token from `Authorization`, or for a WebSocket upgrade (browsers cannot set headers) `?token=`. */
export function agentToken(request: Request, isWebSocket: boolean): string | undefined {
  const fromHeader = bearerToken(request.headers.get("Authorization"));
  if (fromHeader) return fromHeader;
  if (isWebSocket) return new URL(request.url).searchParams.get("token") ?? undefined;
  return undefined;
}

/** The agents gate authenticates exactly as /api does (src/auth/authenticate.ts). */
export function authenticateAgentRequest(env: Env, token: string): Promise<AuthResult> {
  return authenticate(env, token);
}
