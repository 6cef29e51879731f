// Authenticated GET /api/todos with 10,000 todos for one user: first page against the baseline's
// one-row D1 read, and a deep page (400) against the first.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ASSETS_NOTE, signUp } from "../lib.mjs";

const TODOS = 10_000;

/** Inserts `total` todos for `userId` straight into the service's local D1, in one statement. */
function seed(service, root, userId, total) {
  const sqlText =
    "INSERT INTO todos_table (userId, title, description, completed) " +
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${total}) ` +
    `SELECT ${Number(userId)}, 'Benchmark todo ' || i, 'Seeded for npm run bench', i % 2 FROM n`;
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "d1", "execute", "DB", "--local", "--persist-to", service.persistTo];
  args.push("-c", join(root, "wrangler.jsonc"), "--command", sqlText);
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler d1 execute: ${result.stderr}${result.stdout}`);
}

export async function run({ service, baseline, baselineAssets, compare, ratio, round, ROOT }) {
  const { token, userId } = await signUp(service.url);
  const auth = { Authorization: `Bearer ${token}` };

  const seedStarted = performance.now();
  seed(service, ROOT, userId, TODOS);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const check = await (await fetch(`${service.url}/api/todos?pageSize=1`, { headers: auth })).json();
  if (check.data.total !== TODOS) throw new Error(`seeded ${check.data.total} todos, expected ${TODOS}`);

  const r = await compare(
    {
      baseline: { url: `${baseline.url}/row` },
      baselineAssets: { url: `${baselineAssets.url}/row` },
      page1: { url: `${service.url}/api/todos?page=1&pageSize=20`, headers: auth },
      page400: { url: `${service.url}/api/todos?page=400&pageSize=20`, headers: auth },
    },
    { rounds: 3, duration: 4, connections: 10 },
  );
  const row = (name, label, extra = {}) => ({
    target: label,
    "req/s": round(r[name].rps),
    "p50 ms": r[name].p50,
    "p99 ms": r[name].p99,
    errors: r[name].errors,
    ...extra,
  });
  return {
    title: "Todos: GET /api/todos with 10,000 todos",
    rows: [
      row("baseline", "baseline GET /row (one-row D1 read)"),
      row("baselineAssets", "baseline with static assets, as the service", {
        "ratio req/s to baseline": ratio(r.baselineAssets.rps, r.baseline.rps),
      }),
      row("page1", "service page 1", {
        "ratio req/s to baseline": ratio(r.page1.rps, r.baseline.rps),
        "ratio to baseline with assets": ratio(r.page1.rps, r.baselineAssets.rps),
        goal: "req/s ratio >= 0.85",
      }),
      row("page400", "service page 400", {
        "p50 ratio to page 1": ratio(r.page400.p50, r.page1.p50),
        goal: "p50 ratio <= 1.5",
      }),
    ],
    notes: [
      `Seeded ${TODOS} todos (half completed) with one INSERT through wrangler d1 execute --local in ${round(seedSeconds)} s.`,
      "Each page is the JWT check (its user lookup reused for 2 s per isolate), then one D1 batch of two statements rendered once per isolate: the page by id from the (userId, id) index, and the user's row of todo counts (kept by triggers).",
      ASSETS_NOTE,
      "10 connections, 3 alternating rounds of 4 s; medians.",
    ],
  };
}
