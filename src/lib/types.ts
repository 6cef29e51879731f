import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Logger } from "./logger";

/** The signed-in user, set by requireAuth on protected routes. */
export interface AuthUser {
  id: number;
  username: string;
  role: "user" | "admin";
  /** Tokens carrying another version were revoked (src/auth/authenticate.ts). */
  tokenVersion: number;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    logger: Logger;
    user: AuthUser;
  };
}

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
