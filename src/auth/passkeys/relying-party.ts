/** Who the passkeys belong to: the relying party's id and name, and the pages allowed to use them. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

const DEFAULT_NAME = "Workers API Service";

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The relying party for a request to `requestUrl`. PASSKEY_RP_ID defaults to the host the API is called
 * on, which is right for `localhost` and for a deployed host that serves its own frontend; PASSKEY_ORIGINS
 * defaults to the API's own origin plus CORS_ORIGINS, the browser pages that may call the API at all.
 */
export function relyingParty(
  env: Pick<Env, "PASSKEY_RP_ID" | "PASSKEY_RP_NAME" | "PASSKEY_ORIGINS" | "CORS_ORIGINS">,
  requestUrl: string,
): RelyingParty {
  const url = new URL(requestUrl);
  const origins = list(env.PASSKEY_ORIGINS);
  return {
    id: env.PASSKEY_RP_ID?.trim() || url.hostname,
    name: env.PASSKEY_RP_NAME?.trim() || DEFAULT_NAME,
    origins: origins.length > 0 ? origins : [...new Set([url.origin, ...list(env.CORS_ORIGINS)])],
  };
}
