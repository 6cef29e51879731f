// Test-only bindings from vitest.config.ts; the global Env mirrors Cloudflare.Env (worker-configuration.d.ts).
interface TestBindings {
  TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  /** migrations/shards, applied to every DB_SHARD_<n>. */
  TEST_SHARD_MIGRATIONS: import("cloudflare:test").D1Migration[];
  /** The real local AI binding, moved aside: without a Cloudflare login every run() fails fast. */
  LOCAL_AI_BINDING: Ai;
  /** test/workers/rpc-consumer.ts: another Worker calling the agents over Durable Object RPC. */
  RPC_CONSUMER: Fetcher;
  /** test/workers/span-recorder.ts: the GenAI spans of the service's invocations (a streaming tail worker). */
  SPANS: Service<import("./workers/span-recorder").SpanRecorder>;
}
declare namespace Cloudflare {
  interface Env extends TestBindings {}
}
interface Env extends TestBindings {}
