import type { TestProject } from "vitest/node";
import { buildServedClient, ensureClientInstalled } from "../../scripts/lib/react-client.mjs";
import { startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** One `wrangler dev --local` with the committed config, shared by the e2e files that need no other. */
    sharedWorker: { url: string; persistTo: string };
  }
}

/**
 * Starts the shared server once for the whole e2e project: each start costs a build, the D1 migrations
 * and workerd's start-up, some 10 s on a busy machine, which eight files used to pay one after another.
 */
export default async function setup(project: TestProject) {
  // The client `npm run dev` serves at /app/, installed and built here, outside any server's start-up
  // deadline: on a fresh clone its `npm install` alone takes about a minute.
  ensureClientInstalled({ quiet: true });
  await buildServedClient();
  const worker = await startWranglerDev();
  project.provide("sharedWorker", { url: worker.url, persistTo: worker.persistTo });
  return () => worker.stop();
}
