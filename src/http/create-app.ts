import { OpenAPIHono } from "@hono/zod-openapi";
import { requestId } from "hono/request-id";
import { errorBody, notFound, onError, type Issue } from "./errors";
import { createLogger } from "../core/logger";
import type { AppEnv } from "./types";
import { unreadBody } from "./unread-body";

function toIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[],
): Issue[] {
  return issues.map(({ path, message, code }) => ({
    path: path.map((p) => (typeof p === "number" ? p : String(p))),
    message,
    code,
  }));
}

/** A router whose validation failures answer 400 in the envelope with `error.issues`. */
export function createRouter<E extends AppEnv = AppEnv>() {
  return new OpenAPIHono<E>({
    strict: true,
    defaultHook: (result, c) => {
      if (result.success) return;
      const issues = toIssues(result.error.issues);
      const first = issues[0];
      const where = first && first.path.length > 0 ? `${first.path.join(".")}: ` : "";
      return c.json(
        errorBody(`Invalid ${result.target}: ${where}${first?.message ?? "invalid"}`, issues),
        400,
      );
    },
  });
}

/** The root app: unread bodies settled, request id, one JSON log line per request, envelope errors and 404s. */
export function createApp() {
  const app = createRouter();
  app.use(unreadBody);
  app.use(requestId());
  app.use(async (c, next) => {
    const logger = createLogger({ requestId: c.get("requestId") }, c.env.LOG_LEVEL);
    c.set("logger", logger);
    const started = Date.now();
    await next();
    // Path only: query strings may carry agent tokens. Debug level for answered requests: Workers Logs
    // already records every invocation, and under `wrangler dev` a line per request costs about a third
    // of the throughput (bench/scenarios/health.mjs). Server failures stay visible at the default level.
    const status = c.res.status;
    logger[status >= 500 ? "warn" : "debug"]("request", {
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Date.now() - started,
      userId: c.get("user")?.id,
    });
  });
  app.onError(onError);
  app.notFound(notFound);
  return app;
}

export type AppRouter = ReturnType<typeof createRouter>;
