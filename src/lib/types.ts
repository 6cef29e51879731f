import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { Logger } from "./logger";

/** The signed-in user, set by requireAuth on protected routes. */
export interface AuthUser {
  id: number;
  username: string;
  role: "user" | "admin";
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    logger: Logger;
    user: AuthUser;
    /** drizzle on this request's D1 session (src/lib/d1-session.ts), on /api/* only. */
    db: Db;
  };
}

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
