import type { Logger } from "./core/logger";
import { expireCredentials } from "./auth/credential-expiry";
import { expireUploads } from "./files/resumable-expiry";

/**
 * The hourly cron (wrangler.jsonc `triggers`): aborts resumable uploads left unfinished past their
 * expiry, and removes ended sessions and spent reset links.
 */
export async function runHourlyJobs(env: Env, logger: Logger): Promise<void> {
  await expireUploads(env, logger);
  await expireCredentials(env, logger);
}
