/** Who the passkeys belong to: the relying party's id and name, and the pages allowed to use them. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

const DEFAULT_NAME = "Workers API Service";
// An RP id is a domain, never an IP address: a loopback address stands for this machine's `localhost`.
const LOOPBACK = new Set(["127.0.0.1", "[::1]"]);

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The relying party for a request to `requestUrl`. PASSKEY_RP_ID defaults to the host the API is called
 * on (`localhost` for a loopback address), which is right locally and for a deployed host that serves
 * its own frontend; PASSKEY_ORIGINS defaults to the API's own origin plus CORS_ORIGINS, the browser
 * pages that may call the API at all.
 */
export function relyingParty(
  env: Pick<Env, "PASSKEY_RP_ID" | "PASSKEY_RP_NAME" | "PASSKEY_ORIGINS" | "CORS_ORIGINS">,
  requestUrl: string,
): RelyingParty {
  const url = new URL(requestUrl);
  const origins = list(env.PASSKEY_ORIGINS);
  return {
    id: env.PASSKEY_RP_ID?.trim() || (LOOPBACK.has(url.hostname) ? "localhost" : url.hostname),
    name: env.PASSKEY_RP_NAME?.trim() || DEFAULT_NAME,
    origins: origins.length > 0 ? origins : [...new Set([url.origin, ...list(env.CORS_ORIGINS)])],
  };
}
