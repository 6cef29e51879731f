// `npm run deploy` (also what the Deploy to Cloudflare button runs): D1 migrations before the new code,
// except on the first deploy, where `wrangler deploy` must first create the database (it has no id in
// wrangler.jsonc: wrangler provisions D1 and R2 by name) and the migrations follow at once. The React
// client is built first into the static assets (public/app/), served at /app/, where e-mailed links go.
import { spawnSync } from "node:child_process";
import { unstable_readConfig } from "wrangler";
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

const { database_name: name } = unstable_readConfig({}).d1_databases.find((db) => db.binding === "DB");
const listing = wrangler(["d1", "list", "--json"], { capture: true });
// Parse from the first `[`: a notice wrangler prints before the JSON is not part of it.
const exists = JSON.parse(listing.slice(listing.indexOf("["))).some((db) => db.name === name);
const migrate = ["d1", "migrations", "apply", "DB", "--remote"];

if (exists) wrangler(migrate);
wrangler(["deploy"]);
if (!exists) wrangler(migrate);
