import { idempotency } from "../http/idempotency";
import { IDEMPOTENCY_TTL_HOURS, idempotencyStore } from "../idempotency/idempotency";

/**
 * The Idempotency-Key middleware of one route (`route`: its method and path pattern), keeping keys in
 * D1. `inFlightSeconds` bounds how long a request that died keeps its key: longer for uploads, whose
 * bodies may take minutes.
 */
export function idempotent(route: string, { streamedBody = false, inFlightSeconds = 60 } = {}) {
  return idempotency({
    route,
    store: idempotencyStore,
    ttlMs: IDEMPOTENCY_TTL_HOURS * 3_600_000,
    inFlightMs: inFlightSeconds * 1000,
    streamedBody,
  });
}
