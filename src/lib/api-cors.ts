import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./types";

/** Origins from CORS_ORIGINS (comma-separated). Tokens travel in a header, so no credentials mode. */
export function apiCors(): MiddlewareHandler<AppEnv> {
  return cors({
    origin: (origin, c) => {
      const allowed = (c.env.CORS_ORIGINS ?? "").split(",").map((o) => o.trim());
      return allowed.includes(origin) ? origin : null;
    },
    allowMethods: ["GET", "HEAD", "POST", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Range", "If-None-Match", "X-Request-Id"],
    exposeHeaders: ["Content-Disposition", "Content-Range", "ETag", "Retry-After", "X-Request-Id"],
    maxAge: 600,
  });
}
