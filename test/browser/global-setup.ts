import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildClient, ensureClientInstalled, startPreview } from "../../scripts/lib/react-client.mjs";
import { freePort, startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    apiOrigin: string;
    clientOrigin: string;
  }
}

/** One service and one client build for every browser test file. */
export default async function setup(project: TestProject) {
  ensureClientInstalled();
  const [apiPort, clientPort] = [await freePort(), await freePort()];
  const apiOrigin = `http://127.0.0.1:${apiPort}`;
  const clientOrigin = `http://127.0.0.1:${clientPort}`;
  const outDir = mkdtempSync(join(tmpdir(), "react-client-"));

  const [worker] = await Promise.all([
    // The client runs on another origin, so every REST call goes through CORS for real.
    startWranglerDev({ port: apiPort, vars: { CORS_ORIGINS: clientOrigin } }),
    buildClient({ apiOrigin, outDir }),
  ]);
  const preview = await startPreview({ outDir, port: clientPort });

  project.provide("apiOrigin", apiOrigin);
  project.provide("clientOrigin", clientOrigin);
  return async () => {
    await Promise.all([preview.stop(), worker.stop()]);
    rmSync(outDir, { recursive: true, force: true });
  };
}
