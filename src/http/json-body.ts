import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppRouter } from "./create-app";
import { ApiError } from "./errors";
import { pathsWhere, type RegisteredRoute } from "./route-access";
import type { AppEnv } from "./types";

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
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

/** A route whose request body is declared as anything but JSON (an upload, an upload part). */
const streamsBody = (route: RegisteredRoute) =>
  Object.keys(route.request?.body?.content ?? {}).some((type) => !isJsonContentType(type));

/**
 * JSON routes: a body must be declared `application/json` (the validator would read any other
 * type as `{}`) and stay under 1 MiB. Routes that declare another body type read it as a stream and
 * enforce their own limits.
 */
export function jsonBodyGuard(app: AppRouter): MiddlewareHandler<AppEnv> {
  const isStreamed = pathsWhere(app, streamsBody);
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method) || isStreamed(c.req.path)) return next();
    if (hasBody(c.req.raw) && !isJsonContentType(c.req.header("Content-Type"))) {
      throw new ApiError(400, "Content-Type must be application/json");
    }
    return limit(c, next);
  };
}
