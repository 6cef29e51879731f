import { clientIp, consume } from "../core/rate-limit";

// Requests that may make the OAuth library fetch a client's metadata document (CIMD: a client named by
// an https URL): the consent page's, and token requests naming such a client in the form, a client
// assertion or Basic credentials. They share one budget per client address (OAUTH_AUTHORIZE_LIMITER).

/** A token request's form is a few hundred bytes; a larger body is not peeked at, and counts. */
const MAX_PEEKED_BYTES = 16 * 1024;

const isUrl = (clientId: string | null | undefined) => /^https:\/\//i.test(clientId ?? "");

function basicClientId(header: string | null): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  try {
    return decodeURIComponent(atob(match[1]!).split(":")[0]!);
  } catch {
    return null;
  }
}

/** Whether a token request may name a CIMD client (read from a copy: the library reads the original). */
export async function tokenRequestNamesUrlClient(request: Request): Promise<boolean> {
  if (isUrl(basicClientId(request.headers.get("Authorization")))) return true;
  // The library takes forms only; anything else it refuses before looking a client up.
  if (!/^application\/x-www-form-urlencoded/i.test(request.headers.get("Content-Type") ?? "")) return false;
  const length = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (!(length <= MAX_PEEKED_BYTES)) return true;
  const form = new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
  return isUrl(form.get("client_id")) || form.has("client_assertion");
}

/** Spends one unit of this client address's budget; throws RateLimitedError past it. */
export function limitOAuthFetches(env: Env, headers: Headers): Promise<void> {
  return consume(env.OAUTH_AUTHORIZE_LIMITER, `oauth-authorize:${clientIp(headers)}`);
}
