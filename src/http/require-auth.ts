import type { MiddlewareHandler } from "hono";
import { foreignKeyViolation } from "../db/errors";
import { forgetAuthUser } from "../auth/auth-user-cache";
import { AUTH_FAILURE_MESSAGES, authenticateHeader, type AuthFailure } from "../auth/authenticate";
import { ApiError } from "./errors";
import type { AppRouter } from "./create-app";
import { pathsWhere, routeAccessOf, type RouteAccess } from "./route-access";
import type { AppEnv } from "./types";
import type { Credential } from "../auth/credentials";
import { noteKeyUse } from "../auth/api-keys/key-auth";
import { missingScope } from "../auth/scopes";
import type { ApiKeyScope } from "../db/credentials-schema";

/**
 * The /api paths that skip the token check: those of the operations marked PUBLIC at their route
 * (src/http/openapi-helpers.ts), as openapi.json shows them.
 */
export function publicApiPaths(app: AppRouter): (path: string) => boolean {
  return pathsWhere(app, (route) => route.security?.length === 0);
}

/**
 * 401 in the envelope with a challenge for `realm` (fixed: never the request URL, which may carry a
 * query string), and `params` to add (/mcp's way to its authorization server); also for a user deleted
 * after the gate.
 */
export function unauthorized(
  failure: AuthFailure,
  realm = "api",
  headers: Record<string, string> = {},
  params = "",
): ApiError {
  const error = failure === "missing" ? "" : ', error="invalid_token"';
  return new ApiError(401, AUTH_FAILURE_MESSAGES[failure], undefined, {
    ...headers,
    "WWW-Authenticate": `Bearer realm="${realm}"${error}${params}`,
  });
}

/** 403 naming the first scope the key lacks (with `headers`, such as a route's CORS headers). */
export function requireScopes(
  credential: Credential,
  needed: readonly ApiKeyScope[],
  headers?: Record<string, string>,
): void {
  const missing = missingScope(credential, needed);
  if (missing) throw new ApiError(403, `This API key lacks the scope ${missing}`, undefined, headers);
}

/** 403 for an API key where only a sign-in will do. */
export function requireSignIn(credential: Credential): void {
  if (credential.kind === "api_key") {
    throw new ApiError(403, "This route needs a signed-in session; API keys cannot use it");
  }
}

/** An API key on a route: sign-in only, or missing one of the scopes the route's document names (403). */
function checkKeyAccess(credential: Credential, access: RouteAccess): void {
  // No route matched: the 404 follows.
  if (access === null) return;
  if (!access.keys) requireSignIn(credential);
  else requireScopes(credential, access.scopes);
}

/**
 * A write that failed on a FOREIGN KEY because its user was deleted after the gate let the request
 * in is answered as the gate would answer now; any other error is returned as it is.
 */
export function userGoneOr(err: unknown, userId: number): unknown {
  return foreignKeyViolation(err) ? userGone(userId) : err;
}

/** The 401 for a user deleted after the gate let their request in. */
export function userGone(userId: number): ApiError {
  forgetAuthUser(userId);
  return unauthorized("user_gone");
}

/**
 * The /api/* gate: a valid sign-in token or API key whose user still exists, set as `c.get("user")`
 * with `c.get("credential")`; an API key only on the routes and with the scopes their OpenAPI security
 * names (src/http/route-access.ts).
 * Tokens in the query string are ignored here on purpose.
 */
export function requireAuth(app: AppRouter): MiddlewareHandler<AppEnv> {
  const accessOf = routeAccessOf(app);
  const isPublic = publicApiPaths(app);
  return async (c, next) => {
    if (isPublic(c.req.path)) return next();
    const result = await authenticateHeader(c.env, c.req.header("Authorization"), c.var.dbs.directory);
    if (!result.ok) throw unauthorized(result.reason);
    if (result.credential.kind === "api_key") {
      checkKeyAccess(result.credential, accessOf(c));
      await noteKeyUse(c.var.dbs.directory, result.credential);
    }
    c.set("user", result.user);
    c.set("credential", result.credential);
    await next();
  };
}
