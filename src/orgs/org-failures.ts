import { Failure } from "../core/failures";

/** A team's rule refused the change (a limit, a duplicate, the one-owner rule): 409 with the reason. */
export class OrgConflict extends Failure {
  readonly kind = "conflict";
}

/** A team's hourly limit: 429 with the reason. */
export class OrgRateLimited extends Failure {
  readonly kind = "rate_limited";

  get retryAfterSeconds() {
    return 3600;
  }
}
