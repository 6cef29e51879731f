import type { Context } from "hono";

/**
 * The request's waitUntil: work that goes on after the answer. Outside a runtime request (hono's
 * app.request() in unit tests has no execution context) the work simply runs unawaited.
 */
export function background(c: Context): (promise: Promise<unknown>) => void {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return (promise) => void promise;
  }
}
