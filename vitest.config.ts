import { readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { dirname, resolve } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import agents from "agents/vite";
import { defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";
import { packageFile, PURE_DECLARATIONS, withPureDeclarations } from "./scripts/lib/pure-declarations.mjs";
import { standInFor } from "./scripts/lib/stand-ins.mjs";

// A fixed test-only signing key; real deployments set JWT_SECRET with `wrangler secret put`.
const TEST_JWT_SECRET = "test-only-secret-that-is-long-enough-for-hs256-0123456789abcdef";
const COMPATIBILITY_DATE = "2026-11-01";

/**
 * Every var as wrangler.jsonc declares it. The pool also reads a developer's .dev.vars (a local model,
 * allowed origins, a reset-page URL); passing each declared var again makes the tests run on the
 * committed values whatever .dev.vars holds (wrangler loads from it only the names declared there,
 * and JWT_SECRET, which the tests set too).
 */
const DECLARED_VARS = Object.fromEntries(
  Object.entries(unstable_readConfig({ config: "./wrangler.jsonc" }).vars).map(([name, value]) => [
    name,
    typeof value === "string" ? value : JSON.stringify(value),
  ]),
);

/** The build's stand-ins (scripts/lib/stand-ins.mjs), so that the tests run the dependencies that ship. */
const standIns = {
  name: "stand-ins",
  enforce: "pre" as const,
  resolveId(source: string, importer: string | undefined) {
    const from = importer?.split("?")[0];
    const standIn = standInFor(source, dirname(from ?? "."), from);
    return standIn ? resolve(standIn) : null;
  },
};

/** The build's droppable declarations (scripts/lib/pure-declarations.mjs), wrapped here too. */
const pureDeclarations = {
  name: "pure-declarations",
  enforce: "pre" as const,
  transform(code: string, id: string) {
    // With a query (`?raw`), Vite serves the file as something else.
    if (id.includes("?")) return null;
    const file = packageFile(id);
    return Object.hasOwn(PURE_DECLARATIONS, file) ? withPureDeclarations(file, code) : null;
  },
};

/** An auxiliary worker from a self-contained TypeScript file (types stripped by Node 22). */
function auxWorker(name: string, path: string, extra: Record<string, unknown> = {}) {
  const script = stripTypeScriptTypes(readFileSync(path, "utf8"));
  return { name, modules: true, script, compatibilityDate: COMPATIBILITY_DATE, ...extra };
}

/** The directory's migrations (DB) and the data databases' (every DB_SHARD_<n>). */
type Migrations = Record<"directory" | "shards", Awaited<ReturnType<typeof readD1Migrations>>>;

/** A project inside workerd with real local D1, R2 and Durable Objects; `vars` override wrangler.jsonc. */
function workersProject(
  migrations: Migrations,
  name: string,
  include: string[],
  vars: Record<string, string>,
) {
  // The pool's script name for the worker under test.
  const runnerScript = `vitest-plugin-runner-${name}`;
  return {
    plugins: [
      standIns,
      pureDeclarations,
      agents(),
      cloudflareTest({
        wrangler: { configPath: "./wrangler.jsonc" },
        // The source, not the build that wrangler.jsonc uploads: Vite loads each module as src has it.
        main: "./src/index.ts",
        remoteBindings: false,
        miniflare: {
          // Lets the model's abort signal cross the RPC boundary to the stand-in (the real binding takes it natively).
          compatibilityFlags: ["nodejs_compat", "global_fetch_strictly_public", "enable_abortsignal_rpc"],
          // CORS_ORIGINS as `npm run dev` sets it in .dev.vars (the deployed default is empty).
          bindings: {
            ...DECLARED_VARS,
            TEST_MIGRATIONS: migrations.directory,
            TEST_SHARD_MIGRATIONS: migrations.shards,
            JWT_SECRET: TEST_JWT_SECRET,
            LOG_LEVEL: "warn",
            CORS_ORIGINS: "http://localhost:5173",
            // Short route lifetimes, so a move's waits for them (src/db/route-cache.ts) stay short too.
            ROUTE_CACHE_TTL_MS: "200",
            REQUEST_MAX_MS: "50",
            ...vars,
          },
          // The real local AI binding (fails without a Cloudflare login) stays reachable for tests.
          ai: { binding: "LOCAL_AI_BINDING" },
          // The worker's own send_email binding moves aside: EMAIL goes through email-outbox, which
          // hands every message to miniflare's simulated binding and keeps a copy for the tests.
          email: { send_email: [] },
          // Only the model is replaced: AI answers from a scripted Workers AI stand-in.
          serviceBindings: {
            AI: { name: "workers-ai-fake", entrypoint: "WorkersAiFake" },
            EMAIL: { name: "email-outbox", entrypoint: "EmailOutbox" },
            RPC_CONSUMER: "rpc-consumer",
            SPANS: { name: "span-recorder", entrypoint: "SpanRecorder" },
          },
          // Every invocation's trace events go to a streaming tail worker, as to Workers Observability.
          streamingTails: ["span-recorder"],
          workers: [
            auxWorker("workers-ai-fake", "./test/fakes/workers-ai.ts"),
            auxWorker("span-recorder", "./test/workers/span-recorder.ts"),
            auxWorker("email-outbox", "./test/workers/email-outbox.ts", {
              email: { send_email: [{ name: "EMAIL" }] },
            }),
            auxWorker("rpc-consumer", "./test/workers/rpc-consumer.ts", {
              serviceBindings: { CHATS: { name: runnerScript, entrypoint: "ChatsService" } },
              durableObjects: {
                COUNTER: { className: "CounterAgent", scriptName: runnerScript },
                CHAT: { className: "ChatAgent", scriptName: runnerScript },
                FEED: { className: "TodoFeedAgent", scriptName: runnerScript },
              },
            }),
          ],
        },
      }),
    ],
    test: {
      name,
      include,
      setupFiles: ["./test/setup/apply-migrations.ts"],
      // One workerd runner for all of a project's files, not one per file (a third of the run's time
      // went to starting them). Files share the local D1, R2 and Durable Objects: every test makes its
      // own users and rows, and counts only what it made.
      isolate: false,
      testTimeout: 20_000,
      // test/fuzz: FUZZ_SEED picks another reproducible run, FUZZ_RUNS the runs per case,
      // FUZZ_POSITIVE_RUNS the sampled requests per operation of the positive pass.
      provide: {
        fuzzSeed: Number(process.env.FUZZ_SEED ?? 20_260_707),
        fuzzRuns: Number(process.env.FUZZ_RUNS ?? 15),
        fuzzPositiveRuns: Number(process.env.FUZZ_POSITIVE_RUNS ?? 4),
      },
    },
  };
}

export default defineConfig(async () => {
  const migrations = {
    directory: await readD1Migrations("./migrations"),
    shards: await readD1Migrations("./migrations/shards"),
  };
  return {
    test: {
      projects: [
        workersProject(migrations, "workers", ["test/{api,agents,unit}/**/*.test.ts"], {}),
        // The fuzzer alone: a quarter of the workerd time, run beside the others by `npm test`.
        workersProject(migrations, "workers-fuzz", ["test/fuzz/**/*.test.ts"], {}),
        // The same, with AGENTS_REQUIRE_AUTH=true inside the agents too: owned chats with tools, reminders;
        // and a chat model that takes images.
        workersProject(migrations, "workers-owned", ["test/owned/**/*.test.ts"], {
          AGENTS_REQUIRE_AUTH: "true",
          CHAT_MODEL_IMAGES: "true",
        }),
        // The offline demo model (AI_DEMO=true) in place of any model: what `npm run dev` offers a newcomer.
        workersProject(migrations, "workers-demo", ["test/demo/**/*.test.ts"], { AI_DEMO: "true" }),
        {
          // Real clients in Node against `wrangler dev --local` on a loopback port.
          test: {
            name: "e2e",
            environment: "node",
            include: ["test/e2e/**/*.test.ts"],
            globalSetup: ["./test/e2e/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
