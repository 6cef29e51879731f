import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import type { Logger } from "../core/logger";
import type { AuthUser, Credential } from "../auth/credentials";
import type { KeyedWrite } from "../idempotency/keyed-writes";

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

/** How a route answers a kept `result` again: as it answered the write. */
export type ReplayResult<R extends Response> = (result: string) => R | Promise<R>;

/** The Idempotency-Key of an in-batch route, for its handler (`c.get("idempotencyKey")`). */
export interface BatchKey {
  write: KeyedWrite;
  /**
   * The answer when the write found the key held (KeyTakenError): 409, 422, or the kept result again,
   * read from `db`, the data database the write's batch ran in.
   */
  answerTaken<R extends Response>(db: Db, answerResult: ReplayResult<R>): Promise<R>;
}

/** Routes behind requireAuth, where the user is always set. */
export interface AuthedEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { user: AuthUser; credential: Credential };
}

/** What a handler of route R is given: the context with R's input validated (`c.req.valid(...)`). */
export type AppRouteContext<R extends RouteConfig> = Parameters<RouteHandler<R, AppEnv>>[0];
export type AuthedRouteContext<R extends RouteConfig> = Parameters<RouteHandler<R, AuthedEnv>>[0];
