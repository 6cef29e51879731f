import { OAuthAuthorizationServer, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { createLogger } from "../../core/logger";
import { TOKEN_TTL_SECONDS } from "../tokens";
import { AUTHORIZE_PATH, OAUTH_SCOPES, REGISTER_PATH, resourceOf, TOKEN_PATH } from "./oauth-resource";
import { SESSION_MAX_SECONDS } from "../sessions/sessions";

// The OAuth 2.1 authorization server (@cloudflare/workers-oauth-provider, state in the OAUTH_KV
// namespace). Loaded on first use (an OAuth endpoint, an OAuth token on /mcp, the grants API, a user's
// deletion, the cron), never with the rest of the app.

export {
  AuthorizationError,
  authorizationErrorRedirect,
  CimdFetchError,
} from "@cloudflare/workers-oauth-provider";

// One server per issuer seen (see oauth-resource.ts); a few at most, bounded against made-up Host headers.
const MAX_SERVERS = 16;
const servers = new Map<string, OAuthAuthorizationServer<Env>>();

function build(issuer: string, env: Env): OAuthAuthorizationServer<Env> {
  const logger = createLogger({ source: "oauth" }, env.LOG_LEVEL);
  return new OAuthAuthorizationServer<Env>({
    issuer,
    resources: [resourceOf(issuer)],
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [...OAUTH_SCOPES],
    // An AI client may name itself by the URL of its metadata document (MCP's preferred registration),
    // or register dynamically (RFC 7591).
    clientIdMetadataDocumentEnabled: true,
    // As a sign-in: access tokens live an hour, a grant 30 days from consent however often it refreshes.
    accessTokenTTL: TOKEN_TTL_SECONDS,
    refreshTokenTTL: SESSION_MAX_SECONDS,
    // The library's check that failed, never a token: a refused code, verifier or refresh token.
    onError: ({ status, code, internal }) => {
      logger.info("oauth_refused", { status, code, reason: `${internal.category}/${internal.reason}` });
    },
  });
}

/** The authorization server of `issuer` (an origin that oauthIssuer() accepted). */
export function authorizationServer(issuer: string, env: Env): OAuthAuthorizationServer<Env> {
  let server = servers.get(issuer);
  if (!server) {
    if (servers.size >= MAX_SERVERS) servers.delete(servers.keys().next().value as string);
    server = build(issuer, env);
    servers.set(issuer, server);
  }
  return server;
}

/** The helpers of the consent page (parse, describe, approve or deny, complete) for `issuer`. */
export function oauthApi(issuer: string, env: Env): OAuthHelpers {
  return authorizationServer(issuer, env).getOAuthApi(env);
}

// Grants and tokens are KV records keyed by user and grant, the same whichever issuer wrote them:
// listing, revoking and purging them (the grants API, a user's deletion, the cron) need no request origin.
const STORAGE_ISSUER = "http://localhost";

/** The library's helpers for KV-level work on grants. */
export function grantStore(env: Env): OAuthHelpers {
  return oauthApi(STORAGE_ISSUER, env);
}

/** What /mcp needs from a valid access token issued for `issuer`'s resource; null for any other token. */
export async function validateAccessToken(env: Env, issuer: string, token: string) {
  const valid = await authorizationServer(issuer, env).validateToken(resourceOf(issuer), token, env);
  if (!valid) return null;
  // Grants from before grant versions carry none: version 0, as every user started.
  const props = (valid.props ?? {}) as { grantVersion?: number };
  return {
    userId: valid.userId,
    clientId: valid.clientId,
    scope: valid.scope,
    grantId: token.split(":")[1]!,
    grantVersion: props.grantVersion ?? 0,
  };
}
