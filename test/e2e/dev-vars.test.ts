// README "Configuration": every setting it lists can be set in .dev.vars. wrangler dev reads
// .dev.vars next to the config file, so the real wrangler.jsonc is copied into a temporary
// directory (sources and the build script linked beside it) with a .dev.vars that points AI at a scripted server.
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { startScriptedServer, type ScriptedServer } from "../fakes/openai-compatible";

let model: ScriptedServer;
let worker: WranglerDev;
let dir: string;

beforeAll(async () => {
  model = await startScriptedServer();
  dir = mkdtempSync(join(tmpdir(), "dev-vars-"));
  copyFileSync(join(ROOT, "wrangler.jsonc"), join(dir, "wrangler.jsonc"));
  for (const entry of [
    "src",
    "scripts",
    "migrations",
    "public",
    "node_modules",
    "tsconfig.json",
    "package.json",
  ]) {
    symlinkSync(join(ROOT, entry), join(dir, entry));
  }
  writeFileSync(
    join(dir, ".dev.vars"),
    [
      `AI_BASE_URL=${model.baseURL}`,
      "AI_MODEL=model-from-dev-vars",
      "AI_PROBE_TIMEOUT_MS=5000",
      "LOG_LEVEL=warn",
    ].join("\n"),
  );
  worker = await startWranglerDev({ config: join(dir, "wrangler.jsonc"), devVars: true });
});

afterAll(async () => {
  await worker?.stop();
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(".dev.vars under wrangler dev", () => {
  it("AI_BASE_URL and AI_MODEL from .dev.vars take effect: /ai/health asks that server for that model", async () => {
    const res = await fetch(`${worker.url}/ai/health`);
    expect(res.status).toBe(200);
    const call = model.requests.filter((r) => r.path === "/v1/chat/completions").at(-1);
    expect(call?.body.model).toBe("model-from-dev-vars");
  });
});
