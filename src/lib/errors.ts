import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LimiterUnavailableError, RateLimitedError, RETRY_AFTER_SECONDS } from "../services/rate-limit";
import { UserConflictError } from "../services/usernames";
import type { AppEnv } from "./types";

export interface Issue {
  path: (string | number)[];
  message: string;
  code?: string;
}

/** A failure the client can act on; answered in the envelope at its status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorBody(message: string, issues?: Issue[]) {
  return { success: false as const, error: issues ? { message, issues } : { message } };
}

// Hono's own HTTPExceptions (malformed JSON, body limits, jwt) carry a plain-text message.
const HTTP_EXCEPTION_MESSAGES: Partial<Record<number, string>> = {
  400: "Malformed request body",
  401: "Unauthorized",
  413: "Request body too large",
};

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return c.json(errorBody(err.message, err.issues), err.status);
  }
  if (err instanceof UserConflictError) return c.json(errorBody(err.message), 409);
  if (err instanceof RateLimitedError) {
    c.get("logger")?.warn("rate_limited", { path: c.req.path });
    c.header("Retry-After", String(err.retryAfterSeconds));
    return c.json(errorBody(err.message), 429);
  }
  if (err instanceof LimiterUnavailableError) {
    c.get("logger")?.error("rate_limiter_failed", { path: c.req.path, error: String(err.cause) });
    c.header("Retry-After", String(RETRY_AFTER_SECONDS));
    return c.json(errorBody("Service temporarily unavailable"), 503);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const challenge = err.getResponse().headers.get("WWW-Authenticate");
    if (challenge) c.header("WWW-Authenticate", challenge);
    const message = HTTP_EXCEPTION_MESSAGES[status] ?? (err.message || "Request failed");
    return c.json(errorBody(message), status);
  }
  c.get("logger")?.error("unhandled_error", {
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return c.json(errorBody("Internal server error"), 500);
};

export const notFound: NotFoundHandler<AppEnv> = (c) => c.json(errorBody("Not found"), 404);
