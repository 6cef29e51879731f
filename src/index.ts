// The Worker's entry. Every new isolate, Durable Object isolates included, evaluates this module and
// what it imports statically: the four Durable Object classes and the chats' RPC entrypoint, nothing
// else. The HTTP app and the cron's jobs load on first use, each a module of its own in the build
// (scripts/build-worker.mjs).
import { createLogger } from "./core/logger";

export { ChatAgent, CounterAgent, TodoFeedAgent } from "./agents";
export { ChatsService } from "./rpc/chats-service";
export { ShardMover } from "./shards/shard-mover";

let app: Promise<typeof import("./app")> | undefined;

export default {
  async fetch(request, env, ctx) {
    app ??= import("./app");
    return (await app).default.fetch(request, env, ctx);
  },
  async scheduled(_controller, env) {
    const { runHourlyJobs } = await import("./cron");
    await runHourlyJobs(env, createLogger({ source: "cron" }, env.LOG_LEVEL));
  },
} satisfies ExportedHandler<Env>;
