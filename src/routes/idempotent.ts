import { idempotency } from "../http/idempotency";
import { IDEMPOTENCY_TTL_HOURS, idempotencyStore } from "../idempotency/idempotency";

/**
 * The Idempotency-Key middleware of one route (`route`: its method and path pattern), keeping keys in
 * D1. `inFlightSeconds` bounds how long a request that died keeps its key: longer for uploads, whose
 * bodies may take minutes. `inBatch`: the route's write takes the key in its own D1 batch.
 */
export function idempotent(
  route: string,
  { streamedBody = false, inFlightSeconds = 60, inBatch = false } = {},
) {
  return idempotency({
    route,
    store: idempotencyStore,
    ttlMs: IDEMPOTENCY_TTL_HOURS * 3_600_000,
    inFlightMs: inFlightSeconds * 1000,
    streamedBody,
    inBatch,
  });
}
