import { ApiError } from "../lib/errors";
import type { Logger } from "../lib/logger";

/** An R2 call that threw; ObjectWriter raises it so the route can tell storage faults from bad input. */
export class StorageError extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`R2 ${operation} failed`, { cause });
    this.name = "StorageError";
  }
}

/** R2 did not answer: logged with its own message, answered 503 with a retry hint and nothing internal. */
export function storageUnavailable(logger: Logger, operation: string, err: unknown): ApiError {
  const cause = err instanceof StorageError ? err.cause : err;
  logger.error("r2_failed", { operation, error: cause instanceof Error ? cause.message : String(cause) });
  return new ApiError(503, "File storage is not answering, try again", undefined, { "Retry-After": "1" });
}

/** Runs one R2 call; a failure becomes the 503 above. */
export async function callStorage<T>(logger: Logger, operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw storageUnavailable(logger, operation, err);
  }
}
