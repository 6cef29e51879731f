// `npm run seed [-- --url URL | --persist-to DIR]`: a demo account with todos, attachments, files and a
// chat in the local database `npm run dev` uses, written through the service's HTTP API. When `npm run dev`
// answers (at --url, by default http://localhost:8787), through it: two wrangler processes on one state
// folder would fight over its SQLite files. Otherwise through a `wrangler dev --local` of its own on that
// folder (.wrangler/state, or --persist-to), stopped at the end. Safe to run again: it adds what is missing.
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEMO, seedDemo } from "./lib/demo-data.mjs";
import { ROOT, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values } = parseArgs({
  options: { url: { type: "string" }, "persist-to": { type: "string" } },
});

/** True when the service answers /health at `url` within a second. */
async function answers(url) {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function main() {
  const url = values.url?.replace(/\/+$/, "") ?? "http://localhost:8787";
  let server = null;
  if (values["persist-to"] || !(await answers(url))) {
    if (values.url) throw new Error(`Nothing answers at ${url}/health: start it with npm run dev.`);
    const persistTo = values["persist-to"] ?? join(ROOT, ".wrangler", "state");
    console.log(`Starting wrangler dev on ${persistTo} for the seed (nothing answers at ${url})…`);
    server = await startWranglerDev({ persistTo });
  }
  try {
    const { added, total } = await seedDemo(server?.url ?? url);
    const sum = added.files + added.todos + added.chats;
    console.log(
      sum === 0
        ? `Already seeded: the demo account has its ${plural(total.todos, "todo")}, ` +
            `${plural(total.files, "file")} and ${plural(total.chats, "chat")}; nothing added.`
        : `Seeded: ${plural(added.todos, "todo")}, ${plural(added.files, "file")} and ` +
            `${plural(added.chats, "chat")} added to the demo account.`,
    );
    console.log(
      [
        "",
        `  Sign in as ${DEMO.username}, password ${DEMO.password}:`,
        `    React client  ${url}/app/ (with npm run dev running)`,
        `    curl          curl -s ${url}/api/login -H 'Content-Type: application/json' \\`,
        `                    -d '{"username":"${DEMO.username}","password":"${DEMO.password}"}'`,
        "",
      ].join("\n"),
    );
  } finally {
    await server?.stop();
  }
}

main().catch((err) => {
  console.error(`npm run seed: ${err.message}`);
  process.exitCode = 1;
});
