import type { AuthRequest, OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import { limitAuthAttempt } from "../auth/passwords/attempt-limits";
import { oauthIssuer, REQUIRED_SCOPES } from "../auth/oauth/oauth-resource";
import { checkPassword } from "../auth/passwords/password-login";
import { usernameKey } from "../auth/usernames";
import { jwtSecret } from "../auth/tokens";
import { RateLimitedError } from "../core/rate-limit";
import { openDatabases } from "../db/databases";
import type { AppEnv } from "../http/types";
import { limitOAuthFetches } from "./cimd-requests";
import { checkHandle, clearHandleCookie, issueHandle, spendHandle } from "./consent-handles";
import { consentPage, errorPage, pageHeaders, type ConsentView } from "./consent-page";

// A handle that is forged, expired, for another request, already spent, or without this browser's cookie.
const STALE_FORM = "This form has expired or was already used, or was opened in another browser.";

type C = Context<AppEnv>;

// The consent form: the handle beginConsent() made, the user's choice, and their sign-in.
const ConsentForm = z.object({
  handle: z.string().min(1).max(128),
  decision: z.enum(["approve", "deny"]),
  write: z.literal("todos:write").optional(),
  files: z.literal("files:read").optional(),
  username: z.string().max(256).optional(),
  password: z.string().max(256).optional(),
});

function html(
  c: C,
  status: 200 | 400 | 401 | 429,
  body: string,
  headers: Record<string, string>,
  extra?: Headers,
) {
  const response = c.html(body, status, headers);
  extra?.forEach((value, name) => response.headers.append(name, value));
  return response;
}

function refuse(c: C, status: 400 | 429, message: string) {
  const nonce = crypto.randomUUID();
  return html(c, status, errorPage(message, nonce), pageHeaders(nonce));
}

type PageState = Pick<ConsentView, "handle"> & Partial<ConsentView>;

/** The consent page of a request the library validated (client, redirect URI, S256 PKCE, resource). */
async function showPage(
  c: C,
  oauth: OAuthHelpers,
  request: AuthRequest,
  state: PageState,
  status: 200 | 401 | 429,
) {
  const details = await oauth.describeConsent(request);
  const nonce = crypto.randomUUID();
  const asked = { write: request.scope.includes("todos:write"), files: request.scope.includes("files:read") };
  const body = consentPage({ ...details, ...asked, ...state }, nonce);
  return html(c, status, body, pageHeaders(nonce, [new URL(details.redirectUri).origin]));
}

/**
 * Runs one step with the library's helpers for this origin. A refused authorization request goes back
 * to the client when its redirect URI is trusted, and is shown here otherwise (unknown client,
 * unregistered redirect URI, an expired or foreign form).
 */
async function withOAuth(c: C, step: (oauth: OAuthHelpers) => Promise<Response>): Promise<Response> {
  const issuer = oauthIssuer(c.req.url);
  if (!issuer) return c.notFound();
  const { AuthorizationError, CimdFetchError, oauthApi } = await import("../auth/oauth/oauth-server");
  try {
    return await step(oauthApi(issuer, c.env));
  } catch (err) {
    const logger = c.get("logger");
    if (err instanceof CimdFetchError) {
      logger.info("oauth_authorize_refused", { code: "cimd", reason: err.reason });
      return refuse(c, 400, "This app's metadata document could not be read or is not valid.");
    }
    if (!(err instanceof AuthorizationError)) throw err;
    logger.info("oauth_authorize_refused", { code: err.code, description: err.description });
    if (err.redirectTo) return c.redirect(err.redirectTo, 302);
    return refuse(c, 400, err.description);
  }
}

/** One more consent page request from this client address (each may fetch a client's metadata document). */
async function limited(c: C): Promise<Response | null> {
  try {
    await limitOAuthFetches(c.env, c.req.raw.headers);
    return null;
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    const page = refuse(c, 429, "Too many requests: wait a minute, then start again from the app.");
    page.headers.set("Retry-After", String(err.retryAfterSeconds));
    return page;
  }
}

/** A redirect to the client that also drops the spent handle's cookie. */
function backToClient(location: string, nonce: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  headers.append("Set-Cookie", clearHandleCookie(nonce));
  return new Response(null, { status: 302, headers });
}

/** GET: the page, with a signed handle bound to this browser; nothing is stored. */
export const showConsent = (c: C) =>
  withOAuth(c, async (oauth) => {
    const refused = await limited(c);
    if (refused) return refused;
    const request = await oauth.parseAuthRequest(c.req.raw);
    const { handle, setCookie } = await issueHandle(jwtSecret(c.env), c.req.url);
    const page = await showPage(c, oauth, request, { handle }, 200);
    page.headers.append("Set-Cookie", setCookie);
    return page;
  });

/**
 * POST: Deny sends the client `access_denied`. Allow needs the user's password (the login's check and
 * limits): a wrong one shows the page again with the same handle; a right one completes the grant,
 * with `todos:read` and, if ticked, `todos:write` and `files:read`. Either decision spends the handle.
 */
export const decide = (c: C) =>
  withOAuth(c, async (oauth) => {
    const refused = await limited(c);
    if (refused) return refused;
    // A body that does not parse (a malformed multipart form) is an incomplete form too, never a 500.
    const fields = await c.req.parseBody().catch(() => null);
    const form = ConsentForm.safeParse(fields);
    if (!form.success) return refuse(c, 400, "The form was incomplete or changed.");
    const { handle, decision, write, files, username = "", password = "" } = form.data;
    const secret = jwtSecret(c.env);
    const nonce = await checkHandle(secret, c.req.url, handle, c.req.header("Cookie"));
    if (!nonce) return refuse(c, 400, STALE_FORM);
    const request = await oauth.parseAuthRequest(c.req.raw);
    if (decision === "deny") {
      if (!(await spendHandle(c.env.OAUTH_KV, nonce))) return refuse(c, 400, STALE_FORM);
      // Loaded already (withOAuth), like the rest of the library.
      const { authorizationErrorRedirect } = await import("../auth/oauth/oauth-server");
      return backToClient(authorizationErrorRedirect(request, "access_denied"), nonce);
    }
    const logger = c.get("logger");
    const again = (error: string, status: 401 | 429) =>
      showPage(c, oauth, request, { handle, username, error, write: !!write, files: !!files }, status);
    try {
      await limitAuthAttempt(c.env, c.req.raw.headers, "login", usernameKey(username));
    } catch (err) {
      if (err instanceof RateLimitedError)
        return again("Too many attempts: wait a minute, then try again.", 429);
      throw err;
    }
    const checked = await checkPassword(openDatabases(c.env).directory, username, password);
    if (!checked.ok) {
      logger.info("auth_login_failed", { reason: checked.reason, via: "oauth_consent" });
      return again("Invalid username or password", 401);
    }
    if (!(await spendHandle(c.env.OAUTH_KV, nonce))) return refuse(c, 400, STALE_FORM);
    const scope: string[] = [...REQUIRED_SCOPES, ...(write ? [write] : []), ...(files ? [files] : [])];
    const { clientName, redirectHost } = await oauth.describeConsent(request);
    const userId = String(checked.user.id);
    // The grant version at consent: an account recovery raises it, and /mcp then refuses this grant.
    const { grantVersion } = checked.user;
    const { redirectTo } = await oauth.completeAuthorization({
      request: { ...request, scope },
      userId,
      // Shown in the user's list of connected apps; stored in the clear, so nothing secret.
      metadata: { clientName, redirectHost, grantVersion },
      scope,
      props: { userId, grantVersion },
    });
    logger.info("oauth_granted", { userId: checked.user.id, clientId: request.clientId, scope });
    return backToClient(redirectTo, nonce);
  });
