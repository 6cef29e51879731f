// Dependencies this Worker never calls, replaced by small stand-ins in src/shims/ (each file says why).
// The build swaps them (scripts/build-worker.mjs), and so do the tests in workerd (vitest.config.ts),
// so that the tests run the code that ships.
import { resolve } from "node:path";

/** By import path, exactly: a package's subpath stays real unless listed itself. */
export const STAND_INS = {
  "@ai-sdk/gateway": "src/shims/ai-gateway.ts",
  capnweb: "src/shims/capnweb.ts",
  mimetext: "src/shims/mimetext.ts",
  "@oslojs/crypto/sha2": "src/shims/oslo-sha2.ts",
  "cron-schedule": "src/shims/cron-schedule.ts",
  "@modelcontextprotocol/server/_shims": "src/shims/mcp-server-shims.ts",
};

/** By a package's own file, which its modules import by a relative path. */
export const FILE_STAND_INS = {
  "agents/dist/mcp/client/do-oauth-client-provider.js": "src/shims/mcp-oauth-provider.ts",
  "agents/dist/client-DMWujQJ1.js": "src/shims/mcp-client-manager.ts",
  "zod/v4/core/compile.js": "src/shims/zod-compile.ts",
  "zod/v4/classic/from-json-schema.js": "src/shims/zod-from-json-schema.ts",
  "drizzle-orm/relations.js": "src/shims/drizzle-relations.ts",
  "agents/dist/email.js": "src/shims/agents-email.ts",
  "agents/dist/email-send.js": "src/shims/agents-email.ts",
};

/** By a package's own file and what it imports: a narrower module for one importer only. */
export const IMPORT_STAND_INS = {
  // The SDK's chat module runs at every agent's start-up and takes only `jsonSchema` and `tool` from
  // `ai`, which re-exports them: through `ai` itself, start-up built its schemas (in one chunk with the
  // rest of `ai` this Worker uses on a chat turn).
  "agents/dist/stall-watchdog-BpRF2uwG.js": { ai: "src/shims/ai-tool-helpers.ts" },
  // Its Postgres enum check, without pg-core's column classes.
  "drizzle-orm/sql/sql.js": { "../pg-core/columns/enum.js": "src/shims/drizzle-pg-enum.ts" },
};

/** The stand-in for `specifier` imported by `importer` (a file in `fromDir`), if any. */
export function standInFor(specifier, fromDir, importer) {
  if (Object.hasOwn(STAND_INS, specifier)) return STAND_INS[specifier];
  const from = importer?.replaceAll("\\", "/").split("/node_modules/").at(-1);
  if (from && Object.hasOwn(IMPORT_STAND_INS, from) && Object.hasOwn(IMPORT_STAND_INS[from], specifier))
    return IMPORT_STAND_INS[from][specifier];
  if (!specifier.startsWith(".")) return undefined;
  const file = resolve(fromDir, specifier).replaceAll("\\", "/").split("/node_modules/").at(-1);
  return Object.hasOwn(FILE_STAND_INS, file) ? FILE_STAND_INS[file] : undefined;
}

/** Every stand-in: a build that used fewer has a key that no longer matches its dependency. */
export const ALL_STAND_INS = [
  ...Object.values(STAND_INS),
  ...Object.values(FILE_STAND_INS),
  ...Object.values(IMPORT_STAND_INS).flatMap(Object.values),
];
