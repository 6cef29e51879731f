// Runs in both: the Durable Objects wipe themselves; the Worker's wipes (src/chats/agent-wipes.ts) read the outcome.

/**
 * The reason an instance resets itself with once its storage is gone: what its wipe's caller sees. workerd
 * logs every abort as an uncaught exception, so the reason says that this one is the intended reset.
 */
const WIPED = "agent wiped: the intended reset after a delete, not a crash";
const WIPE_FAILED = "agent wipe failed";

/**
 * The Agents SDK's destroy() (every table, the alarm and all storage deleted), then a reset of the
 * object at once, so no request ever meets the instance half-destroyed: the next one starts a new,
 * empty instance. Never returns: the call fails with the reset, whose message tells the outcome.
 */
export async function destroyAndReset(ctx: DurableObjectState, destroy: () => Promise<void>): Promise<never> {
  try {
    await destroy();
  } catch {
    // A fresh instance retries the wipe; this one may hold half-deleted state.
    ctx.abort(WIPE_FAILED);
  }
  ctx.abort(WIPED);
  throw new Error("unreachable: the object was reset");
}

/** Whether a wipe call ended in the reset of a completed wipe (the only way it succeeds). */
export function wasWiped(err: unknown): boolean {
  return (
    err instanceof Error &&
    err.message === WIPED &&
    (err as Error & { durableObjectReset?: boolean }).durableObjectReset === true
  );
}
