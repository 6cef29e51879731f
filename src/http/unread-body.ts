import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./types";

/** A body up to this size that the answer left unread is read to its end; a larger one is cancelled. */
export const MAX_DRAINED_BYTES = 1024 * 1024;

/**
 * Settles a body the answer left unread (a 401 or 413 given before an upload was read), before the
 * answer goes: wrangler dev without its body-drain middleware (no_bundle, workers-sdk#15203) would
 * otherwise fail the connection's next request with a 500 "Network connection lost". A small body is
 * read to its end, as that middleware does; a larger one (a 90 MiB upload) is cancelled, never read,
 * unless `drainAll`: under wrangler dev a cancelled body loses the answer itself (a 500 instead of the
 * 401, a few in 40 unsigned 2 MiB posts), so there every body is read to its end.
 */
export async function settleUnreadBody(request: Request, drainAll = false): Promise<void> {
  const body = request.body;
  if (!body || request.bodyUsed || body.locked) return;
  const reader = body.getReader();
  try {
    // A declared length past the bound cancels at once; an undeclared one is read up to the bound.
    const bound = drainAll ? Infinity : MAX_DRAINED_BYTES;
    let read = drainAll ? 0 : Number(request.headers.get("Content-Length") ?? 0) || 0;
    while (read <= bound) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing is left to settle.
  }
}

/** settleUnreadBody() for every request, on the request the handlers saw last (a middleware may wrap it). */
export const unreadBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  await settleUnreadBody(c.req.raw, c.env.DRAIN_UNREAD_BODIES === "true");
};
