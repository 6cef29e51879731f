import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { Logger } from "../core/logger";
import type { AuthUser, Credential } from "../auth/credentials";

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
  };
}

/** Routes behind requireAuth, where the user is always set. */
export interface AuthedEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { user: AuthUser; credential: Credential };
}

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
export type AuthedRouteHandler<R extends RouteConfig> = RouteHandler<R, AuthedEnv>;
