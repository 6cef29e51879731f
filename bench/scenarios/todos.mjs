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

/** The envelope's field names and an item's, to compare two list answers. */
const shape = (body) =>
  JSON.stringify([Object.keys(body.data).toSorted(), Object.keys(body.data.items[0]).toSorted()]);

/** Fails the run unless the baseline's /page answers what the service's page 1 answers (same fields, 20 items). */
async function sameWorkAsService(baselineUrl, serviceUrl, auth) {
  const base = await (await fetch(`${baselineUrl}/page`)).json();
  const svc = await (await fetch(`${serviceUrl}/api/todos?page=1&pageSize=20`, { headers: auth })).json();
  if (base.data.items.length !== 20 || base.data.total !== TODOS || shape(base) !== shape(svc)) {
    throw new Error(`baseline /page differs from the service's page 1: ${shape(base)} vs ${shape(svc)}`);
  }
}

export async function run({ service, baseline, baselineAssets, compare, pairedRatio, ratio, round, ROOT }) {
  const { token, userId } = await signUp(service.url);
  const auth = { Authorization: `Bearer ${token}` };

  const seedStarted = performance.now();
  seed(service, ROOT, userId, TODOS);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const check = await (await fetch(`${service.url}/api/todos?pageSize=1`, { headers: auth })).json();
  if (check.data.total !== TODOS) throw new Error(`seeded ${check.data.total} todos, expected ${TODOS}`);
  await sameWorkAsService(baseline.url, service.url, auth);

  const r = await compare(
    {
      baseline: { url: `${baseline.url}/row` },
      baselineAssets: { url: `${baselineAssets.url}/row` },
      samePage: { url: `${baseline.url}/page` },
      samePageAssets: { url: `${baselineAssets.url}/page` },
      page1: { url: `${service.url}/api/todos?page=1&pageSize=20`, headers: auth },
      page400: { url: `${service.url}/api/todos?page=400&pageSize=20`, headers: auth },
    },
    { rounds: 6, duration: 2, connections: 10 },
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
        "ratio req/s to baseline": pairedRatio(r.baselineAssets, r.baseline),
      }),
      row("samePage", "baseline GET /page (page 1's D1 work, no framework)", {
        "ratio req/s to baseline": pairedRatio(r.samePage, r.baseline),
      }),
      row("samePageAssets", "baseline GET /page with static assets", {
        "ratio req/s to baseline": pairedRatio(r.samePageAssets, r.baseline),
      }),
      row("page1", "service page 1", {
        "ratio req/s to baseline": pairedRatio(r.page1, r.baseline),
        "ratio to baseline with assets": pairedRatio(r.page1, r.baselineAssets),
        "ratio to /page with assets": pairedRatio(r.page1, r.samePageAssets),
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
      "Baseline GET /page: the service's two page-1 statements on the same schema, seeded alike, in one batch on a D1 session, in a bare Worker; the gap between it and GET /row is the D1 work page 1 needs, the gap between it and the service is the service's own.",
      "10 connections, 6 rounds of 2 s in alternating order; req/s and latency are medians over rounds, ratios the median of the same-round ratios.",
    ],
  };
}
