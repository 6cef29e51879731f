/** An R2 call that threw: answered 503 with a retry hint and nothing internal (src/http/errors.ts). */
export class StorageError extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`R2 ${operation} failed`, { cause });
    this.name = "StorageError";
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
