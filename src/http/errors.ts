import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AiUnavailableError } from "../ai/models";
import { ProbeTimeoutError } from "../ai/probe";
import { LimiterUnavailableError, RateLimitedError, RETRY_AFTER_SECONDS } from "../core/rate-limit";
import { StorageError } from "../files/storage-errors";
import { InvalidUploadError, UploadTooLargeError } from "../files/form-upload";
import { UserConflictError } from "../auth/usernames";
import type { Logger } from "../core/logger";
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

interface Answer {
  status: ContentfulStatusCode;
  message: string;
  issues?: Issue[];
  headers?: Record<string, string>;
}

/**
 * The one place a thrown error becomes an HTTP answer. Services throw their own domain errors
 * and never build responses; handlers throw ApiError for their own HTTP decisions (404, 403).
 */
function answerFor(err: unknown, logger: Logger | undefined, path: string): Answer | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof InvalidUploadError) return { status: 400, message: err.message };
  if (err instanceof UploadTooLargeError) return { status: 413, message: err.message };
  if (err instanceof UserConflictError) return { status: 409, message: err.message };
  if (err instanceof RateLimitedError) {
    logger?.warn("rate_limited", { path });
    return { status: 429, message: err.message, headers: { "Retry-After": String(err.retryAfterSeconds) } };
  }
  if (err instanceof LimiterUnavailableError) {
    logger?.error("rate_limiter_failed", { path, error: String(err.cause) });
    const headers = { "Retry-After": String(RETRY_AFTER_SECONDS) };
    return { status: 503, message: "Service temporarily unavailable", headers };
  }
  if (err instanceof StorageError) {
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    logger?.error("r2_failed", { operation: err.operation, error: cause });
    return {
      status: 503,
      message: "File storage is not answering, try again",
      headers: { "Retry-After": "1" },
    };
  }
  if (err instanceof AiUnavailableError) return { status: 503, message: err.message };
  if (err instanceof ProbeTimeoutError) {
    logger?.warn("ai_probe_timeout", { timeoutMs: err.timeoutMs });
    return { status: 504, message: err.message };
  }
  return undefined;
}

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const answer = answerFor(err, c.get("logger"), c.req.path);
  if (answer) {
    for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
    return c.json(errorBody(answer.message, answer.issues), answer.status);
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
