import type { IdempotencyRow } from "../idempotency/idempotency.queries";
import { ApiError } from "./errors";
import type { ReplayResult } from "./types";

// What a request is answered when its Idempotency-Key is already held (src/http/idempotency.ts).

export const REPLAYED_HEADER = "Idempotent-Replayed";

function replay(row: IdempotencyRow): Response {
  const headers = new Headers(JSON.parse(row.headers ?? "{}") as Record<string, string>);
  headers.set(REPLAYED_HEADER, "true");
  return new Response(row.body, { status: row.status ?? 200, headers });
}

/**
 * The answer to a request whose key another request holds: 409 while that one runs, 422 when it was
 * another request (`sent` is this one's fingerprint), else the kept answer again; a kept `result`
 * is answered by the route (`answerResult`).
 */
export async function answerHeld<R extends Response>(
  kept: IdempotencyRow | null,
  inFlightMs: number,
  sent: () => Promise<string>,
  answerResult?: ReplayResult<R>,
): Promise<R | Response> {
  if (!kept || kept.state === "in_flight") {
    throw new ApiError(
      409,
      "A request with this Idempotency-Key is still in progress: wait for its answer, then retry",
      undefined,
      { "Retry-After": String(Math.min(Math.ceil(inFlightMs / 1000), 60)) },
    );
  }
  if (kept.fingerprint !== (await sent())) {
    throw new ApiError(
      422,
      "This Idempotency-Key was used for another request: send a new key with a new request",
    );
  }
  if (kept.result === null || !answerResult) return replay(kept);
  const res = await answerResult(kept.result);
  res.headers.set(REPLAYED_HEADER, "true");
  return res;
}
