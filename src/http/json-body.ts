import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./errors";
import type { AppEnv } from "./types";

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
// Routes that read their body as a stream (uploads, upload parts) and enforce their own limits.
const STREAMED_BODY_PATHS = /^\/api\/(?:upload|uploads\/[^/]+\/parts\/[^/]+)$/;
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const limit = bodyLimit({
  maxSize: JSON_BODY_LIMIT_BYTES,
  onError: () => {
    throw new ApiError(413, "Request body too large");
  },
});

/** `application/json` or `application/<suffix>+json`, with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  return JSON_TYPE.test(value ?? "");
}

function hasBody(request: Request): boolean {
  const length = request.headers.get("Content-Length");
  if (length !== null) return length.trim() !== "0";
  return request.body !== null;
}

/**
 * JSON routes: a body must be declared `application/json` (the validator would read any other
 * type as `{}`) and stay under 1 MiB.
 */
export const jsonBodyGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!BODY_METHODS.has(c.req.method) || STREAMED_BODY_PATHS.test(c.req.path)) return next();
  if (hasBody(c.req.raw) && !isJsonContentType(c.req.header("Content-Type"))) {
    throw new ApiError(400, "Content-Type must be application/json");
  }
  return limit(c, next);
};
