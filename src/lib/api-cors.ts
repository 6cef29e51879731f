import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./types";

/** Origins from CORS_ORIGINS (comma-separated). Tokens travel in a header, so no credentials mode. */
export const apiCors: MiddlewareHandler<AppEnv> = (c, next) =>
  cors({
    origin: c.env.CORS_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    allowMethods: ["GET", "HEAD", "POST", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Range", "If-None-Match", "X-Request-Id"],
    exposeHeaders: ["Content-Disposition", "Content-Range", "ETag", "Retry-After", "X-Request-Id"],
    maxAge: 600,
  })(c, next);
