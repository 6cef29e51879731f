import { defineConfig } from "vitest/config";

// `npm run test:browser`: the React example in headless Chromium against `wrangler dev --local`.
// Kept out of `npm test` (vitest.config.ts): it needs Chromium and builds the client.
export default defineConfig({
  test: {
    name: "browser",
    environment: "node",
    include: ["test/browser/**/*.test.ts"],
    globalSetup: ["./test/browser/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // A screen that loads over the network (a page load, a CORS preflight, then the API) can take more
    // than vitest's 1 s default on a busy 2-core CI machine; a poll returns as soon as it holds.
    expect: { poll: { timeout: 5_000 } },
  },
});
