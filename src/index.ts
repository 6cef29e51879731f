import app from "./app";
import { createLogger } from "./core/logger";
import { expireUploads } from "./files/resumable-expiry";

export { ChatAgent, CounterAgent } from "./agents";
export type { AppType } from "./app";

export default {
  fetch: app.fetch,
  // The cron trigger in wrangler.jsonc: aborts resumable uploads left unfinished past their expiry.
  async scheduled(_controller, env) {
    await expireUploads(env, createLogger({ source: "cron" }, env.LOG_LEVEL));
  },
} satisfies ExportedHandler<Env>;
