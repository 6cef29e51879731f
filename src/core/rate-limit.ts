/** How long a refused client is told to wait: the limiters count per 60 s window. */
export const RETRY_AFTER_SECONDS = 60;

/** The client as Cloudflare reports it; absent locally, where every caller shares one bucket. */
export function clientIp(headers: Headers): string {
  return headers.get("cf-connecting-ip") ?? "local";
}

/** Past a limit: answered 429 with `Retry-After` (src/http/errors.ts). */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds = RETRY_AFTER_SECONDS) {
    super("Too many requests");
    this.name = "RateLimitedError";
  }
}

/** The limiter itself failed: answered 503, never let through (fail closed). */
export class LimiterUnavailableError extends Error {
  constructor(cause: unknown) {
    super("Rate limiter unavailable", { cause });
    this.name = "LimiterUnavailableError";
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
