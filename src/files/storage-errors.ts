import { Failure, type FailureLog } from "../core/failures";

/** An R2 call that threw: the client gets a retry hint and nothing internal. */
export class StorageError extends Failure {
  readonly kind = "unavailable";

  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`R2 ${operation} failed`, { cause });
    this.name = "StorageError";
  }

  get publicMessage() {
    return "File storage is not answering, try again";
  }

  get retryAfterSeconds() {
    return 1;
  }

  log(): FailureLog {
    const cause = this.cause instanceof Error ? this.cause.message : String(this.cause);
    return { level: "error", event: "r2_failed", fields: { operation: this.operation, error: cause } };
  }
}

/** Runs one R2 call; its failure is raised as a StorageError. */
export async function callStorage<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new StorageError(operation, err);
  }
}
