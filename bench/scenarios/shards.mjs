// Reads and writes of many users' workspaces spread over 4 shards, against the same work on one database
// (no DB_SHARD_* binding: every workspace on DB, the layout before shards), the two services side by side
// in alternating rounds; and the share of a request that the directory's lookup of the workspace takes.
import { writeShardConfig } from "../shards/configs.mjs";
import { signUp } from "../lib.mjs";

const USERS = 16;
const TODOS_PER_USER = 20;
const HEALTH_SAMPLES = 200;

/** Runs `task` over `items` with at most `limit` at once. */
async function inBatches(items, limit, task) {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(task));
}

async function createTodo(url, token, title) {
  const res = await fetch(`${url}/api/todos`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
}

/** Users with their todos on `url`; registration places each workspace (4 shards: the least filled). */
async function seedUsers(url) {
  const users = [];
  await inBatches([...Array(USERS).keys()], 4, async () => users.push(await signUp(url)));
  const creates = users.flatMap((u) =>
    Array.from({ length: TODOS_PER_USER }, (_, i) => [u.token, `Todo ${i}`]),
  );
  await inBatches(creates, 8, ([token, title]) => createTodo(url, token, title));
  return users.map((u) => u.token);
}

/** Each user's todo total on `url`, read as the benchmark reads. */
const totals = (url, tokens) =>
  Promise.all(
    tokens.map(async (token) => {
      const res = await fetch(`${url}${READ.path}`, { headers: { Authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`read: ${res.status} ${await res.text()}`);
      return (await res.json()).data.total;
    }),
  );

/** Fails the run unless both services list each user's todos alike: the same work on both sides. */
async function sameAnswers(url4, tokens4, url1, tokens1) {
  const [a, b] = [await totals(url4, tokens4), await totals(url1, tokens1)];
  if (a.some((n, i) => n !== TODOS_PER_USER || b[i] !== TODOS_PER_USER))
    throw new Error(`totals ${a} vs ${b}`);
}

/** One autocannon request whose Authorization turns through the users, so every workspace is hit alike. */
function rotating(tokens, request) {
  let next = 0;
  return [
    {
      ...request,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` },
      }),
    },
  ];
}

const READ = { method: "GET", path: "/api/todos?page=1&pageSize=20" };
const WRITE = {
  method: "POST",
  path: "/api/todos",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ title: "Bench write" }),
};

/** Mean of /health's own D1 round trip to the directory (d1.latencyMs) while reads load the service. */
async function directoryRoundTrip(load, url, tokens) {
  const reads = load({ url, requests: rotating(tokens, READ), duration: 4, connections: 10 });
  const samples = [];
  while (samples.length < HEALTH_SAMPLES) {
    const body = await (await fetch(`${url}/health`)).json();
    samples.push(body.data.d1.latencyMs);
  }
  const loaded = await reads;
  if (loaded.errors + loaded.non2xx > 0) throw new Error(`reads failed: ${loaded.errors + loaded.non2xx}`);
  return { meanMs: samples.reduce((a, b) => a + b, 0) / samples.length, readP50: loaded.p50 };
}

export const needsServers = false;

export async function run({ startWranglerDev, compare, pairedRatio, ratio, round, load, ROOT }) {
  const sharded = writeShardConfig(ROOT, 4);
  const single = writeShardConfig(ROOT, 0);
  // One after the other: each start builds dist/ and migrates its databases.
  const four = await startWranglerDev({ config: sharded.path });
  const one = await startWranglerDev({ config: single.path }).catch(async (err) => {
    await four.stop();
    throw err;
  });
  try {
    const [tokens4, tokens1] = [await seedUsers(four.url), await seedUsers(one.url)];
    await sameAnswers(four.url, tokens4, one.url, tokens1);
    const r = await compare(
      {
        read4: { url: four.url, requests: rotating(tokens4, READ) },
        read1: { url: one.url, requests: rotating(tokens1, READ) },
        write4: { url: four.url, requests: rotating(tokens4, WRITE) },
        write1: { url: one.url, requests: rotating(tokens1, WRITE) },
      },
      { rounds: 6, duration: 2, connections: 16 },
    );
    const lookup = await directoryRoundTrip(load, four.url, tokens4);
    const row = (name, label, extra = {}) => ({
      target: label,
      "req/s": round(r[name].rps),
      "p50 ms": r[name].p50,
      "p99 ms": r[name].p99,
      "errors and non-2xx": r[name].errors,
      ...extra,
    });
    return {
      title: "Shards: reads and writes on 4 shards against one database",
      rows: [
        row("read1", "GET /api/todos page 1, one database"),
        row("read4", "GET /api/todos page 1, 4 shards", {
          "ratio req/s to one database": pairedRatio(r.read4, r.read1),
          goal: ">= 0.95",
        }),
        row("write1", "POST /api/todos, one database"),
        row("write4", "POST /api/todos, 4 shards", {
          "ratio req/s to one database": pairedRatio(r.write4, r.write1),
          goal: ">= 0.95",
        }),
        {
          target: "directory lookup of the workspace (4 shards, under read load)",
          "p50 ms": round(lookup.meanMs, 2),
          "share of a read": `${round(100 * (ratio(lookup.meanMs, lookup.readP50) ?? 0))} %`,
        },
      ],
      notes: [
        `${USERS} users per service, ${TODOS_PER_USER} todos each made through the API; each request is a user's in turn (16 connections, 6 rounds of 2 s alternating; req/s and latency are medians over rounds, ratios the median of same-round ratios).`,
        "4 shards: the directory DB and DB_SHARD_0..3, workspaces placed by the service at registration. One database: the same Worker with no DB_SHARD_* binding, so every workspace lives on DB (the layout before shards). Configs generated from wrangler.jsonc (bench/shards/configs.mjs).",
        `Directory lookup: a request reads its workspace's row from the directory only when its isolate does not remember it (src/db/route-cache.ts: at most once per workspace per isolate per ROUTE_CACHE_TTL_MS, 30 s), so here a few dozen of the run's requests. The cost of one is estimated as /health's own D1 round trip to the directory (d1.latencyMs, mean of ${HEALTH_SAMPLES} samples taken while reads load the service), over the p50 of those reads: the share of a read that does it.`,
        "Under wrangler dev every local D1 database runs in the same workerd process: 4 shards cannot add CPU here, so the ratio shows what routing costs, not what spreading gains on Cloudflare (there each D1 database runs its queries on its own).",
      ],
    };
  } finally {
    await Promise.all([four.stop(), one.stop()]);
    sharded.remove();
    single.remove();
  }
}
