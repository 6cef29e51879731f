import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  AUTHORIZE_PATH,
  oauthIssuer,
  protectedResourceMetadata,
  REGISTER_PATH,
  RESOURCE_METADATA_PATH,
  TOKEN_PATH,
} from "../auth/oauth/oauth-resource";
import { clientIp, consume } from "../core/rate-limit";
import type { AppRouter } from "../http/create-app";
import { ApiError } from "../http/errors";
import { apiSecurityHeaders } from "../http/security-headers";
import type { AppEnv } from "../http/types";
import { limitOAuthFetches, tokenRequestNamesUrlClient } from "./cimd-requests";
import { decide, showConsent } from "./consent";

// Metadata documents are public and read by browser-based MCP clients, which send MCP-Protocol-Version.
const METADATA_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "MCP-Protocol-Version",
  "Access-Control-Max-Age": "86400",
};
// The consent form: a handle, a choice, a username and a password.
const FORM_LIMIT_BYTES = 16 * 1024;

/** Protected resource metadata of /mcp (RFC 9728), where the 401's `resource_metadata` points. */
function resourceMetadata(c: Context<AppEnv>) {
  const issuer = oauthIssuer(c.req.url);
  if (!issuer) return c.notFound();
  return c.json(protectedResourceMetadata(issuer), 200, { ...METADATA_CORS, "Cache-Control": "no-store" });
}

/**
 * The endpoints the OAuth library answers itself: authorization server metadata (RFC 8414), token
 * (codes with S256 PKCE, refresh with rotation, revocation) and dynamic client registration, limited
 * per client IP because each registration is stored (and token requests naming a client by a URL,
 * which the library may fetch).
 */
async function libraryEndpoint(c: Context<AppEnv>) {
  const issuer = oauthIssuer(c.req.url);
  if (!issuer) return c.notFound();
  if (c.req.method === "POST" && c.req.path === REGISTER_PATH) {
    await consume(c.env.OAUTH_CLIENT_LIMITER, `oauth-client:${clientIp(c.req.raw.headers)}`);
  }
  if (c.req.method === "POST" && c.req.path === TOKEN_PATH && (await tokenRequestNamesUrlClient(c.req.raw))) {
    await limitOAuthFetches(c.env, c.req.raw.headers);
  }
  const { authorizationServer } = await import("../auth/oauth/oauth-server");
  // hono types its context with fewer members than the runtime's; it is the runtime's.
  return authorizationServer(issuer, c.env).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
}

/** OAuth 2.1 for AI clients: discovery, registration, the consent page and tokens (README "OAuth for AI clients"). */
export function mountOAuth(app: AppRouter) {
  const libraryPaths = [AUTHORIZATION_SERVER_METADATA_PATH, TOKEN_PATH, REGISTER_PATH];
  for (const path of [RESOURCE_METADATA_PATH, ...libraryPaths]) app.use(path, apiSecurityHeaders);
  app.get(RESOURCE_METADATA_PATH, resourceMetadata);
  app.options(RESOURCE_METADATA_PATH, (c) => c.body(null, 204, METADATA_CORS));
  for (const path of libraryPaths) app.on(["GET", "HEAD", "POST", "OPTIONS"], path, libraryEndpoint);
  app.get(AUTHORIZE_PATH, showConsent);
  app.post(
    AUTHORIZE_PATH,
    bodyLimit({
      maxSize: FORM_LIMIT_BYTES,
      onError: () => {
        throw new ApiError(413, "Request body too large");
      },
    }),
    decide,
  );
}
