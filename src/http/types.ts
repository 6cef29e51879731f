import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { Logger } from "../core/logger";
import type { BatchKey } from "./held-keys";
import type { ApiKeyScope } from "../db/credentials-schema";

/** The signed-in user, set by requireAuth on protected routes. */
export interface AuthUser {
  id: number;
  username: string;
  role: "user" | "admin";
  /** Tokens without a session that carry another version were revoked (src/auth/authenticate.ts). */
  tokenVersion: number;
}

/**
 * What a request authenticated with: a sign-in session's JWT, a JWT without a session (issued before
 * sessions existed), or an API key with its scopes. Only API keys are limited to scopes.
 */
export type Credential =
  | { kind: "session"; sessionId: string }
  | { kind: "token" }
  | { kind: "api_key"; keyId: number; scopes: ApiKeyScope[] };

/** An access token from an OAuth grant (src/auth/oauth-server.ts): accepted on /mcp only, within its scopes. */
export interface OAuthCredential {
  kind: "oauth";
  grantId: string;
  clientId: string;
  scopes: ApiKeyScope[];
}

/** What /mcp accepts: everything /api does, and OAuth access tokens issued for /mcp. */
export type McpCredential = Credential | OAuthCredential;

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    logger: Logger;
    /** Unset on public routes; routers of protected routes use AuthedEnv. */
    user?: AuthUser;
    credential?: Credential;
    /** drizzle on this request's D1 session (src/http/d1-session.ts), on /api/* only. */
    db: Db;
    /** The Idempotency-Key a route's write takes in its own batch, when one was sent (src/http/idempotency.ts). */
    idempotencyKey?: BatchKey;
  };
}

/** Routes behind requireAuth, where the user is always set. */
export interface AuthedEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { user: AuthUser; credential: Credential };
}

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
export type AuthedRouteHandler<R extends RouteConfig> = RouteHandler<R, AuthedEnv>;
