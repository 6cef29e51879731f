import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildClient, ensureClientInstalled, startPreview } from "../../scripts/lib/react-client.mjs";
import { freePort, startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { startScriptedServer } from "../fakes/openai-compatible";
import { assertChromium } from "./chromium-path";

declare module "vitest" {
  export interface ProvidedContext {
    apiOrigin: string;
    clientOrigin: string;
  }
}

/** One service, one scripted model and one client build for every browser test file. */
export default async function setup(project: TestProject) {
  assertChromium();
  ensureClientInstalled();
  const [apiPort, clientPort] = [await freePort(), await freePort()];
  const apiOrigin = `http://127.0.0.1:${apiPort}`;
  const clientOrigin = `http://127.0.0.1:${clientPort}`;
  const outDir = mkdtempSync(join(tmpdir(), "react-client-"));

  // Only the model is scripted: the chat runs through the real agent, provider and WebSocket.
  const model = await startScriptedServer();
  const vars = { CORS_ORIGINS: clientOrigin, AI_BASE_URL: model.baseURL, AI_MODEL: "scripted-model" };
  const [worker] = await Promise.all([
    // The client runs on another origin, so every REST call goes through CORS for real.
    startWranglerDev({ port: apiPort, vars }),
    buildClient({ apiOrigin, outDir }),
  ]);
  const preview = await startPreview({ outDir, port: clientPort });

  project.provide("apiOrigin", apiOrigin);
  project.provide("clientOrigin", clientOrigin);
  return async () => {
    await Promise.all([preview.stop(), worker.stop(), model.close()]);
    rmSync(outDir, { recursive: true, force: true });
  };
}
