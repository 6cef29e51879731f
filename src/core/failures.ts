/**
 * What went wrong, in words the subjects can use without knowing HTTP. The one place a kind
 * becomes a status is the error handler (src/http/errors.ts).
 */
export type FailureKind =
  | "invalid"
  | "too_large"
  | "conflict"
  | "precondition_failed"
  | "gone"
  | "rate_limited"
  | "unavailable"
  | "timeout";

/** A log line the error handler writes when it answers a failure. */
export interface FailureLog {
  level: "warn" | "error";
  event: string;
  fields?: Record<string, unknown>;
}

/** A failure the caller can act on, thrown by a subject and answered in the envelope. */
export abstract class Failure extends Error {
  abstract readonly kind: FailureKind;

  /** What the client reads; `message` may carry more, for the logs. */
  get publicMessage(): string {
    return this.message;
  }

  /** Seconds the client should wait before trying again (answered as Retry-After). */
  get retryAfterSeconds(): number | undefined {
    return undefined;
  }

  /** The line worth logging when this failure is answered, if any. */
  log(): FailureLog | undefined {
    return undefined;
  }
}
