import { Failure, type FailureLog } from "./failures";

/** How long a refused client is told to wait: the limiters count per 60 s window. */
export const RETRY_AFTER_SECONDS = 60;

/** The client as Cloudflare reports it; absent locally, where every caller shares one bucket. */
export function clientIp(headers: Headers): string {
  return headers.get("cf-connecting-ip") ?? "local";
}

/** Past a limit: the client is told when to try again. */
export class RateLimitedError extends Failure {
  readonly kind = "rate_limited";

  constructor() {
    super("Too many requests");
    this.name = "RateLimitedError";
  }

  get retryAfterSeconds() {
    return RETRY_AFTER_SECONDS;
  }

  log(): FailureLog {
    return { level: "warn", event: "rate_limited" };
  }
}

/** The limiter itself failed: refused, never let through (fail closed). */
export class LimiterUnavailableError extends Failure {
  readonly kind = "unavailable";

  constructor(cause: unknown) {
    super("Rate limiter unavailable", { cause });
    this.name = "LimiterUnavailableError";
  }

  get publicMessage() {
    return "Service temporarily unavailable";
  }

  get retryAfterSeconds() {
    return RETRY_AFTER_SECONDS;
  }

  log(): FailureLog {
    return { level: "error", event: "rate_limiter_failed", fields: { error: String(this.cause) } };
  }
}

/** Spends one unit of `limiter` for `key`, or throws one of the two errors above. */
export async function consume(limiter: RateLimit, key: string): Promise<void> {
  let allowed: boolean;
  try {
    ({ success: allowed } = await limiter.limit({ key }));
  } catch (err) {
    throw new LimiterUnavailableError(err);
  }
  if (!allowed) throw new RateLimitedError();
}
