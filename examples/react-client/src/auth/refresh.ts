import { API_ORIGIN } from "../config";
import type { components } from "../api/schema";
import { getSession, signIn, signOut } from "./session";

type LoginResult = components["schemas"]["LoginResult"];

// A token is refreshed this long before it expires, so no call goes out with one about to lapse.
const EARLY_MS = 60_000;
export const SESSION_ENDED_NOTICE = "Your session has ended. Please sign in again.";

let inFlight: Promise<string | null> | null = null;

/** POST /api/auth/refresh with the stored refresh token; the new pair replaces the old one. */
async function exchange(): Promise<string | null> {
  const refreshToken = getSession()?.refreshToken;
  if (!refreshToken) return null;
  let res: Response;
  try {
    res = await fetch(`${API_ORIGIN}/api/auth/refresh`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refreshToken }),
    });
  } catch {
    // Offline: keep the session; the call that needed a token fails as it would have.
    return null;
  }
  if (res.status === 401) {
    signOut(SESSION_ENDED_NOTICE);
    return null;
  }
  if (!res.ok) return null;
  const { data } = (await res.json()) as { data: LoginResult };
  signIn(data);
  return data.token;
}

/**
 * Trades the refresh token for a new token and refresh token, once however many calls ask at the same
 * time (a refresh token works once: a second, later use would end the session). Null when there is
 * no new token; a refused refresh signs out.
 */
export function refreshSession(): Promise<string | null> {
  inFlight ??= exchange().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** The session's token, refreshed first when it expires within a minute; null when signed out. */
export async function freshToken(): Promise<string | null> {
  const session = getSession();
  if (!session) return null;
  if (Date.parse(session.expiresAt) - Date.now() > EARLY_MS) return session.token;
  return (await refreshSession()) ?? getSession()?.token ?? null;
}

/**
 * Signs out here and ends the session on the service too (best effort: offline, it ends on its own).
 * `reason` is shown on the sign-in screen.
 */
export async function logOut(reason: string | null = null): Promise<void> {
  const token = getSession()?.token;
  signOut(reason);
  if (!token) return;
  await fetch(`${API_ORIGIN}/api/auth/logout`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
}
