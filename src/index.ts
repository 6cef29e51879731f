import app from "./app";
import { createLogger } from "./core/logger";
import { expireCredentials } from "./auth/credential-expiry";
import { expireUploads } from "./files/resumable-expiry";

export { ChatAgent, CounterAgent } from "./agents";
export type { AppType } from "./app";

export default {
  fetch: app.fetch,
  // The cron trigger in wrangler.jsonc: aborts resumable uploads left unfinished past their expiry,
  // and removes ended sessions and spent reset links.
  async scheduled(_controller, env) {
    const logger = createLogger({ source: "cron" }, env.LOG_LEVEL);
    await expireUploads(env, logger);
    await expireCredentials(env, logger);
  },
} satisfies ExportedHandler<Env>;
