// A team's live feed: one write to a team with 50 members connected, timed from the write's answer to
// the frame on the last member's socket (p50, p99 over the writes); a team write's own cost against a
// personal write (req/s, same rounds, with the 50 members listening and with none), and a team's page
// of todos against the same user's own page.
import { join } from "node:path";
import { d1Select } from "../writes/d1.mjs";
import { openServiceFeed } from "../writes/listeners.mjs";

const MEMBERS = 50;
const WRITES = 40;
const CONNECTIONS = [8, 32];

const percentile = (values, p) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * A fresh account, each from an address of its own; registration is limited per client IP, so a 429
 * (wrangler dev may not pass the address on) waits for the window.
 */
async function member(url, i) {
  const username = `team_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const body = JSON.stringify({
    username,
    password: `pw-${crypto.randomUUID()}`,
    name: "Member",
    email: `${username}@example.test`,
  });
  const headers = { "Content-Type": "application/json", "CF-Connecting-IP": `198.18.${i >> 8}.${i & 255}` };
  for (let attempt = 0; attempt < 30; attempt++) {
    const res = await fetch(`${url}/api/register`, { method: "POST", headers, body });
    if (res.status === 201) return (await res.json()).data;
    if (res.status !== 429) throw new Error(`register: ${res.status} ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  throw new Error("register: still limited after 150 s");
}

const post = (token, body) => ({
  method: "POST",
  headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

export async function run({ service, compare, pairedRatio, round, ROOT }) {
  const owner = await member(service.url, 0);
  const team = await fetch(`${service.url}/api/orgs`, post(owner.token, { name: "Bench team" }));
  const orgId = (await team.json()).data.id;
  const members = [];
  for (let i = 1; i < MEMBERS; i++) members.push(await member(service.url, i));
  // Memberships written straight into the local D1: 49 invitations would cost 49 e-mails for nothing measured.
  const values = members.map((m) => `(${orgId}, ${m.userId}, 'member')`).join(", ");
  d1Select(
    join(ROOT, "wrangler.jsonc"),
    service.persistTo,
    "DB",
    `INSERT INTO org_members_table (orgId, userId, role) VALUES ${values}`,
  );

  const everyone = [owner, ...members];
  // Ten at a time: each opening socket subscribes its feed to the team's, as a client's page load would.
  const sockets = [];
  for (let i = 0; i < everyone.length; i += 10) {
    sockets.push(
      ...(await Promise.all(everyone.slice(i, i + 10).map((user) => openServiceFeed(service.url, user)))),
    );
  }
  // Each feed has subscribed once the team's presence it hears lists all 50.
  await Promise.all(
    sockets.map((s) => s.waitFor((d) => d?.type === "presence" && d.online.length === MEMBERS, 30_000)),
  );

  const toLast = [];
  const toEach = [];
  for (let i = 0; i < WRITES; i++) {
    // From the request's start: Node may handle a frame before the answer that preceded it.
    const sent = performance.now();
    const res = await fetch(`${service.url}/api/todos`, post(owner.token, { title: `Team ${i}`, orgId }));
    const { id } = (await res.json()).data;
    const heard = await Promise.all(
      sockets.map((s) =>
        s.waitFor((d) => d?.type === "todo.created" && d.id === id && d.orgId === orgId, 5_000),
      ),
    );
    const delays = heard.map((frame) => frame.at - sent);
    toEach.push(...delays);
    toLast.push(Math.max(...delays));
    // Apart by more than the wake window, so each write wakes the team's feed itself.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }

  /** Team creates against personal ones by the same user, in paired rounds. */
  const costRows = async (rows, listening, connectionCounts) => {
    for (const connections of connectionCounts) {
      const r = await compare(
        {
          personal: { url: `${service.url}/api/todos`, ...post(owner.token, { title: "Mine" }) },
          team: { url: `${service.url}/api/todos`, ...post(owner.token, { title: "Ours", orgId }) },
        },
        { rounds: 6, duration: 2, connections },
      );
      rows.push({
        measure: `POST /api/todos with orgId vs without, ${connections} connections, ${listening}`,
        "req/s": round(r.team.rps),
        "personal req/s": round(r.personal.rps),
        "p50 ms": r.team.p50,
        "p99 ms": r.team.p99,
        errors: r.team.errors + r.personal.errors,
        ratio: pairedRatio(r.team, r.personal),
        goal: ">= 0.9",
      });
    }
  };
  const rows = [
    {
      measure: `one team write, ${MEMBERS} members connected: request sent to the last member's frame`,
      "p50 ms": round(percentile(toLast, 50)),
      "p99 ms": round(percentile(toLast, 99)),
      samples: toLast.length,
      goal: "< 1,000 ms",
    },
    {
      measure: "the same, to each member",
      "p50 ms": round(percentile(toEach, 50)),
      "p99 ms": round(percentile(toEach, 99)),
      samples: toEach.length,
    },
  ];
  // With the 50 members listening, the fan-out runs in the same workerd process as the writes (locally,
  // Durable Objects share the machine); with none, a team write's own path against a personal one.
  await costRows(rows, "50 members listening", [8]);
  await Promise.all(sockets.map((s) => s.close()));
  await costRows(rows, "no one listening", CONNECTIONS);
  // A read: page 1 of the team's list against page 1 of the same user's own (both lists hold thousands
  // of todos by now), in paired rounds.
  const auth = { headers: { Authorization: `Bearer ${owner.token}` } };
  const reads = await compare(
    {
      personal: { url: `${service.url}/api/todos?page=1&pageSize=20`, ...auth },
      team: { url: `${service.url}/api/todos?orgId=${orgId}&page=1&pageSize=20`, ...auth },
    },
    { rounds: 6, duration: 2, connections: 10 },
  );
  rows.push({
    measure: "GET /api/todos?orgId= page 1 vs the personal page 1, 10 connections",
    "req/s": round(reads.team.rps),
    "personal req/s": round(reads.personal.rps),
    "p50 ms": reads.team.p50,
    "p99 ms": reads.team.p99,
    errors: reads.team.errors + reads.personal.errors,
    ratio: pairedRatio(reads.team, reads.personal),
    goal: ">= 0.95",
  });
  return {
    title: `Team feed: one write to a team of ${MEMBERS} members connected; a team write's cost`,
    rows,
    notes: [
      "Latency is timed from the write's request (so it includes the write itself) to the frame on each socket, on one machine over loopback; writes 1.1 s apart.",
      "The team write wakes the team's feed (one RPC, as a personal write wakes the user's), which reads the team's change log once and passes the batch to each member's feed with sockets open (one RPC each), which sends it to its sockets.",
      "The cost ratio pairs rounds of team and personal creates by the same user; the team's checks the writer's role in its own insert (the team's data database keeps a copy of roles) and appends an audit entry in the write's batch; both routes are remembered per isolate.",
    ],
  };
}
