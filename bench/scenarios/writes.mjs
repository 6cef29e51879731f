// POST /api/todos against a bare Worker doing the same work (bench/baseline/src/writes.ts: the HS256
// check, the same INSERT ... RETURNING on the service's schema and triggers), with and without its own
// per-user Durable Object publish; the service also with an Idempotency-Key. Then 10,000 writes checked
// end to end, and the isolate's CPU profile of the service's writes.
import { join } from "node:path";
import { ASSETS_NOTE, signUp } from "../lib.mjs";
import { d1Migrate } from "../writes/d1.mjs";
import { integrity } from "../writes/integrity.mjs";
import { openBaselineFeed, openServiceFeed } from "../writes/listeners.mjs";
import { profileWrites } from "../writes/profile.mjs";

const CONNECTIONS = [8, 32];
const body = JSON.stringify({ title: "Bench todo" });
const post = (token) => ({
  method: "POST",
  headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  body,
});
/** A new Idempotency-Key on every request (autocannon's setupRequest), so none is a replay. */
const keyed = (token) => ({
  requests: [
    {
      ...post(token),
      path: "/api/todos",
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, "Idempotency-Key": crypto.randomUUID() },
      }),
    },
  ],
});

/** A create's answer as the comparison sees it: status, envelope and todo fields, whether it has an ETag. */
async function answerShape(url, token) {
  const res = await fetch(url, post(token));
  const answer = await res.json();
  return JSON.stringify([
    res.status,
    Object.keys(answer),
    Object.keys(answer.data).toSorted(),
    res.headers.has("etag"),
  ]);
}

/** Fails the run unless both sides answer a create with the same envelope and todo fields. */
async function sameAnswer(bareUrl, bareToken, serviceUrl, serviceToken) {
  const [bare, service] = await Promise.all([
    answerShape(bareUrl, bareToken),
    answerShape(serviceUrl, serviceToken),
  ]);
  if (bare !== service) throw new Error(`the bare Worker answers ${bare}, the service ${service}`);
}

/** The baseline's write database (the service's migrations), its bench user and a token for it. */
async function setUpBaseline(worker, config) {
  d1Migrate(config, worker.persistTo, "WRITES");
  return (await (await fetch(`${worker.url}/setup-writes`, { method: "POST" })).json()).data;
}

export async function run(context) {
  const { service, baseline, baselineAssets, compare, pairedRatio, round, ROOT } = context;
  const configs = join(ROOT, "bench", "baseline");
  const bare = await setUpBaseline(baseline, join(configs, "wrangler.jsonc"));
  const bareAssets = await setUpBaseline(baselineAssets, join(configs, "wrangler.assets.jsonc"));
  const user = await signUp(service.url);
  await sameAnswer(`${baseline.url}/todos`, bare.token, `${service.url}/api/todos`, user.token);
  const listeners = await Promise.all([
    openServiceFeed(service.url, user),
    openBaselineFeed(baseline.url, bare.userId),
    openBaselineFeed(baselineAssets.url, bareAssets.userId),
  ]);

  const targets = {
    bare: { url: `${baseline.url}/todos`, ...post(bare.token) },
    barePublish: { url: `${baseline.url}/todos?publish=1`, ...post(bare.token) },
    barePublishAssets: { url: `${baselineAssets.url}/todos?publish=1`, ...post(bareAssets.token) },
    service: { url: `${service.url}/api/todos`, ...post(user.token) },
    serviceKeyed: { url: service.url, ...keyed(user.token) },
  };
  const rows = [];
  for (const connections of CONNECTIONS) {
    const r = await compare(targets, { rounds: 6, duration: 2, connections });
    const row = (name, label, extra = {}) => ({
      connections,
      target: label,
      "req/s": round(r[name].rps),
      "p50 ms": r[name].p50,
      "p99 ms": r[name].p99,
      errors: r[name].errors,
      ...extra,
    });
    const ratios = (name) => ({
      "ratio to bare + publish": pairedRatio(r[name], r.barePublish),
      "ratio to bare + publish with assets": pairedRatio(r[name], r.barePublishAssets),
    });
    rows.push(
      row("bare", "bare Worker: HS256 check, INSERT ... RETURNING"),
      row("barePublish", "bare Worker + its per-user Durable Object publish", {
        "ratio to bare": pairedRatio(r.barePublish, r.bare),
      }),
      row("barePublishAssets", "the same, with static assets as the service", {
        "ratio to bare": pairedRatio(r.barePublishAssets, r.bare),
        "ratio to bare + publish": pairedRatio(r.barePublishAssets, r.barePublish),
      }),
      row("service", "service POST /api/todos", {
        "ratio to bare": pairedRatio(r.service, r.bare),
        ...ratios("service"),
        goal: ">= 0.9 of bare + publish",
      }),
      row("serviceKeyed", "service POST /api/todos with an Idempotency-Key", {
        "ratio to bare": pairedRatio(r.serviceKeyed, r.bare),
        ...ratios("serviceKeyed"),
        goal: ">= 0.75 of bare + publish",
      }),
    );
  }
  await Promise.all(listeners.map((socket) => socket.close()));

  const checked = await integrity(context);
  const profiles = await profileWrites(context, {
    plain: (u) => post(u.token),
    keyed: (u) => keyed(u.token),
  });
  const profileRows = Object.entries(profiles).flatMap(([name, { busy, requests, top }]) =>
    top.map(([what, ms]) => ({
      profile: name === "plain" ? "POST /api/todos" : "with an Idempotency-Key",
      "source module or V8 / workerd category": what,
      "self ms": round(ms),
      "% of busy samples": round((100 * ms) / busy),
      "µs per write": round((1000 * ms) / requests, 0),
    })),
  );
  return [
    {
      title: "Writes: POST /api/todos vs a bare Worker doing the same D1 work",
      rows,
      notes: [
        "6 rounds of 2 s in alternating order at each connection count; req/s and latency are medians over rounds, ratios the median of the same-round ratios.",
        "Every write creates a todo: the bare Worker runs the service's INSERT ... RETURNING (drizzle's rendering) in one batch on a D1 session, against the service's migrations (the change-log and counts triggers, the foreign key) in a database of its own.",
        "Publish, the bare Worker's: after the answer (waitUntil), one RPC per write to the user's Durable Object, which keeps the event (last 1,000) and sends it to every open socket. The service's: after the answer, a wake of the user's TodoFeedAgent at most once a second per isolate, which then reads the change log every 50 ms and does the same with each change. One socket listens on each side's feed during the rounds.",
        "Idempotency-Key: a new key on every request, so each one writes (none is a replay).",
        ASSETS_NOTE,
      ],
    },
    checked,
    {
      title: "Writes: the isolate's CPU profile, top self time by source module",
      rows: profileRows,
      notes: [
        "An unminified build of the service (BUILD_MINIFY=false) under wrangler dev, its live feed open; 6 s of writes at 32 connections per profile after 2 s of warm-up, Profiler sampling every 250 µs. The isolate runs the Worker and its Durable Objects (the feed); D1 runs in another.",
        "Busy samples: all but (idle). Raw profiles: bench/results/writes-*.cpuprofile.",
      ],
    },
  ];
}
