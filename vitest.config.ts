import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import agents from "agents/vite";
import { defineConfig } from "vitest/config";

// A fixed test-only signing key; real deployments set JWT_SECRET with `wrangler secret put`.
const TEST_JWT_SECRET = "test-only-secret-that-is-long-enough-for-hs256-0123456789abcdef";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    test: {
      projects: [
        {
          // Black-box and unit tests inside workerd, with real local D1, R2 and Durable Objects.
          plugins: [
            agents(),
            cloudflareTest({
              wrangler: { configPath: "./wrangler.jsonc" },
              remoteBindings: false,
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: "warn" },
              },
            }),
          ],
          test: {
            name: "workers",
            include: ["test/{api,agents,unit}/**/*.test.ts"],
            setupFiles: ["./test/setup/apply-migrations.ts"],
            testTimeout: 20_000,
          },
        },
        {
          // Real clients in Node against `wrangler dev --local` on a loopback port.
          test: {
            name: "e2e",
            environment: "node",
            include: ["test/e2e/**/*.test.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
