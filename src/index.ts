// The Worker's entry. Every new isolate, Durable Object isolates included, evaluates this module and
// what it imports statically: the two Durable Object classes and nothing else. The HTTP app and the
// cron job load on first use, each a module of its own in the build (scripts/build-worker.mjs).
import { createLogger } from "./core/logger";

export { ChatAgent, CounterAgent } from "./agents";
export type { AppType } from "./app";

let app: Promise<typeof import("./app")> | undefined;

export default {
  async fetch(request, env, ctx) {
    app ??= import("./app");
    return (await app).default.fetch(request, env, ctx);
  },
  // The cron trigger in wrangler.jsonc: expired uploads and reservations, deleted users' objects.
  async scheduled(_controller, env) {
    const { hourlySweep } = await import("./files/hourly-sweep");
    await hourlySweep(env, createLogger({ source: "cron" }, env.LOG_LEVEL));
  },
} satisfies ExportedHandler<Env>;
