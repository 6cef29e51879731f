// `npm run deploy` (also what the Deploy to Cloudflare button runs): the React client is built first into
// the static assets (public/app/), served at /app/, where e-mailed links go. Then every D1 database of
// wrangler.jsonc (the directory and each shard) is created when missing and migrated, before the new
// code goes out (scripts/lib/deploy-plan.mjs).
import { spawnSync } from "node:child_process";
import { d1Databases } from "./lib/d1-migrations.mjs";
import { deployPlan } from "./lib/deploy-plan.mjs";
import { buildServedClient, ensureClientInstalled } from "./lib/react-client.mjs";

function wrangler(args, { capture = false } = {}) {
  const result = spawnSync("npx", ["wrangler", ...args], {
    stdio: capture ? ["inherit", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return result.stdout;
}

ensureClientInstalled({ quiet: true });
await buildServedClient();

const listing = wrangler(["d1", "list", "--json"], { capture: true });
// Parse from the first `[`: a notice wrangler prints before the JSON is not part of it.
const existing = JSON.parse(listing.slice(listing.indexOf("["))).map((db) => db.name);
for (const step of deployPlan(d1Databases(), existing)) wrangler(step);
