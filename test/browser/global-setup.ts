import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import {
  buildClient,
  ensureClientInstalled,
  startPreview,
  typecheckClient,
} from "../../scripts/lib/react-client.mjs";
import { freePort, startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { startScriptedServer } from "../fakes/openai-compatible";
import { assertChromium, launchChromium } from "./chromium-path";

interface Stack {
  apiOrigin: string;
  clientOrigin: string;
  /** The same client as `localhost`: passkeys need a domain (an RP id is never an IP address). */
  passkeyOrigin: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The service as it ships (agents public) and a client built for it. */
    open: Stack;
    /** The service with AGENTS_REQUIRE_AUTH=true and a client built with VITE_AGENTS_AUTH=true. */
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

/** `wrangler dev --local` plus a production build of the client served by `vite preview`. */
async function startStack(modelBaseURL: string, agentsAuth: boolean, cleanups: Cleanup[]): Promise<Stack> {
  const [apiPort, clientPort] = [await freePort(), await freePort()];
  const apiOrigin = `http://127.0.0.1:${apiPort}`;
  const clientOrigin = `http://127.0.0.1:${clientPort}`;
  const passkeyOrigin = `http://localhost:${clientPort}`;
  const outDir = mkdtempSync(join(tmpdir(), "react-client-"));
  cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
  const vars = {
    // The client runs on another origin, so every REST call goes through CORS for real.
    CORS_ORIGINS: `${clientOrigin},${passkeyOrigin}`,
    AGENTS_REQUIRE_AUTH: String(agentsAuth),
    AI_BASE_URL: modelBaseURL,
    // Reset e-mails link to this client's own page.
    PASSWORD_RESET_URL: `${clientOrigin}/#/reset-password?token={token}`,
    EMAIL_CONFIRM_URL: `${clientOrigin}/#/confirm-email?token={token}`,
    AI_MODEL: "scripted-model",
  };
  await allSettledOrThrow([
    startWranglerDev({ port: apiPort, vars }).then((worker) => cleanups.push(() => worker.stop())),
    // Served by vite preview at its root, on an origin of its own (the service serves its own build at /app/).
    buildClient({ apiOrigin, outDir, agentsAuth, base: "/" }),
  ]);
  const preview = await startPreview({ outDir, port: clientPort });
  cleanups.push(() => preview.stop());
  return { apiOrigin, clientOrigin, passkeyOrigin };
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
      startStack(model.baseURL, false, cleanups),
      startStack(model.baseURL, true, cleanups),
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
