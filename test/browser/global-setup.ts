import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import {
  buildClient,
  buildServedClient,
  ensureClientInstalled,
  startPreview,
  typecheckClient,
} from "../../scripts/lib/react-client.mjs";
import { freePort, reservePort, startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { startScriptedServer } from "../fakes/openai-compatible";
import { assertChromium, launchChromium } from "./chromium-path";

interface Stack {
  apiOrigin: string;
  /** Where the client's page is (`${clientUrl}/#/todos` opens a screen). */
  clientUrl: string;
  /** The same client as `localhost`: passkeys need a domain (an RP id is never an IP address). */
  passkeyUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The service as it ships (agents public), serving its client at /app/ as `npm run dev` does. */
    open: Stack;
    /**
     * The service with AGENTS_REQUIRE_AUTH=true and a client built with VITE_AGENTS_AUTH=true for it,
     * served by `vite preview` on another origin: the cross-origin setup (CORS, configured link pages).
     */
    gated: Stack;
    /** Where the shared Chromium listens: test files connect instead of each starting one. */
    browserEndpoint: string;
  }
}

type Cleanup = () => Promise<unknown> | void;

/** Like Promise.all, but waits for every promise, so whatever started has registered its cleanup. */
async function allSettledOrThrow<T extends readonly unknown[]>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

/** `wrangler dev --local` serving the client's build (public/app/, made when stale) at /app/. */
async function startSameOriginStack(modelBaseURL: string, cleanups: Cleanup[]): Promise<Stack> {
  const port = await freePort();
  await buildServedClient();
  const vars = { AI_BASE_URL: modelBaseURL, AI_MODEL: "scripted-model" };
  const worker = await startWranglerDev({ port, vars });
  cleanups.push(() => worker.stop());
  return {
    apiOrigin: worker.url,
    clientUrl: `${worker.url}/app`,
    passkeyUrl: `http://localhost:${port}/app`,
  };
}

/** `wrangler dev --local` plus a production build of the client served by `vite preview` on another port. */
async function startCrossOriginStack(
  modelBaseURL: string,
  agentsAuth: boolean,
  cleanups: Cleanup[],
): Promise<Stack> {
  const apiPort = await freePort();
  // vite preview starts a minute later, after wrangler and the build: held till then, no server
  // started meanwhile (workerd, another wrangler's inspector) can be given the port CORS names.
  const { port: clientPort, release } = await reservePort();
  cleanups.push(release);
  const apiOrigin = `http://127.0.0.1:${apiPort}`;
  const clientUrl = `http://127.0.0.1:${clientPort}/app`;
  const passkeyUrl = `http://localhost:${clientPort}/app`;
  const outDir = mkdtempSync(join(tmpdir(), "react-client-"));
  cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
  const vars = {
    // The client runs on another origin, so every REST call goes through CORS for real.
    CORS_ORIGINS: `http://127.0.0.1:${clientPort},http://localhost:${clientPort}`,
    AGENTS_REQUIRE_AUTH: String(agentsAuth),
    AI_BASE_URL: modelBaseURL,
    // E-mailed links go to this client's own pages, not to the service's /app/.
    PASSWORD_RESET_URL: `${clientUrl}/#/reset-password?token={token}`,
    EMAIL_CONFIRM_URL: `${clientUrl}/#/confirm-email?token={token}`,
    AI_MODEL: "scripted-model",
  };
  await allSettledOrThrow([
    startWranglerDev({ port: apiPort, vars }).then((worker) => cleanups.push(() => worker.stop())),
    buildClient({ apiOrigin, outDir, agentsAuth }),
  ]);
  await release();
  const preview = await startPreview({ outDir, port: clientPort });
  cleanups.push(() => preview.stop());
  return { apiOrigin, clientUrl, passkeyUrl };
}

/** The services, the scripted model and the client builds, shared by every browser test file. */
export default async function setup(project: TestProject) {
  assertChromium();
  ensureClientInstalled();
  const cleanups: Cleanup[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.toReversed()) await cleanup();
  };
  try {
    // Only the model is scripted: the chat runs through the real agent, provider and WebSocket.
    const model = await startScriptedServer();
    cleanups.push(() => model.close());
    const [, open, gated, chromium] = await allSettledOrThrow([
      typecheckClient(),
      startSameOriginStack(model.baseURL, cleanups),
      startCrossOriginStack(model.baseURL, true, cleanups),
      launchChromium().then((server) => {
        cleanups.push(() => server.close());
        return server;
      }),
    ]);
    project.provide("open", open);
    project.provide("gated", gated);
    project.provide("browserEndpoint", chromium.wsEndpoint());
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
