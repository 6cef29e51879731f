// Test-only bindings from vitest.config.ts; the global Env mirrors Cloudflare.Env (worker-configuration.d.ts).
interface TestBindings {
  TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
}
declare namespace Cloudflare {
  interface Env extends TestBindings {}
}
interface Env extends TestBindings {}
