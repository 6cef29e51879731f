import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Failure, type FailureKind } from "../core/failures";
import type { Logger } from "../core/logger";
import { WorkspaceOwnerGone } from "../db/workspace-errors";
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

// Hono's own HTTPExceptions (a malformed JSON body, say) carry a plain-text message: these replace it.
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

const FAILURE_STATUS: Record<FailureKind, ContentfulStatusCode> = {
  invalid: 400,
  too_large: 413,
  conflict: 409,
  precondition_failed: 412,
  gone: 410,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
};

/**
 * The one place a thrown error becomes an HTTP answer. Subjects throw Failures (src/core/failures.ts)
 * and never build responses; handlers throw ApiError for their own HTTP decisions (404, 403).
 */
function answerFor(err: unknown, logger: Logger | undefined, path: string): Answer | undefined {
  if (err instanceof ApiError) return err;
  // Deleted after the gate let the request in: answered as the gate (401) or a team's routes (404) would now.
  if (err instanceof WorkspaceOwnerGone) {
    return err.owner.kind === "user"
      ? {
          status: 401,
          message: "User no longer exists",
          headers: { "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"' },
        }
      : { status: 404, message: "Team not found" };
  }
  if (!(err instanceof Failure)) return undefined;
  const entry = err.log();
  if (entry) logger?.[entry.level](entry.event, { path, ...entry.fields });
  const retryAfter = err.retryAfterSeconds;
  return {
    status: FAILURE_STATUS[err.kind],
    message: err.publicMessage,
    headers: retryAfter === undefined ? undefined : { "Retry-After": String(retryAfter) },
  };
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
