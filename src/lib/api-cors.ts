import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./types";

// Built once per CORS_ORIGINS value rather than on every request.
let built: { origins: string; handler: MiddlewareHandler } | undefined;

function corsFor(origins: string): MiddlewareHandler {
  if (built?.origins !== origins) {
    const handler = cors({
      origin: origins
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
      allowMethods: ["GET", "HEAD", "POST", "PUT", "OPTIONS"],
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "Range",
        "If-None-Match",
        "X-Request-Id",
        "X-D1-Bookmark",
      ],
      exposeHeaders: [
        "Content-Disposition",
        "Content-Range",
        "ETag",
        "Retry-After",
        "X-Request-Id",
        "X-D1-Bookmark",
      ],
      maxAge: 600,
    });
    built = { origins, handler };
  }
  return built.handler;
}

/** Origins from CORS_ORIGINS (comma-separated). Tokens travel in a header, so no credentials mode. */
export const apiCors: MiddlewareHandler<AppEnv> = (c, next) => corsFor(c.env.CORS_ORIGINS)(c, next);
