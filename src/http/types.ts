import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Databases } from "../db/databases";
import type { Logger } from "../core/logger";
import type { AuthUser, Credential } from "../auth/credentials";
import type { BatchKey } from "./held-keys";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    logger: Logger;
    /** Unset on public routes; routers of protected routes use AuthedEnv. */
    user?: AuthUser;
    credential?: Credential;
    /** The request's databases, each in its D1 session (src/http/d1-session.ts), on /api/* only. */
    dbs: Databases;
    /** The Idempotency-Key a route's write takes in its own batch, when one was sent (src/http/idempotency.ts). */
    idempotencyKey?: BatchKey;
  };
}

/** Routes behind requireAuth, where the user is always set. */
export interface AuthedEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { user: AuthUser; credential: Credential };
}

/** What a handler of route R is given: the context with R's input validated (`c.req.valid(...)`). */
export type AppRouteContext<R extends RouteConfig> = Parameters<RouteHandler<R, AppEnv>>[0];
export type AuthedRouteContext<R extends RouteConfig> = Parameters<RouteHandler<R, AuthedEnv>>[0];
