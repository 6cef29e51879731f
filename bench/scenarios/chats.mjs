// Chats: GET /api/chats page 1 with 1,000 chats for one user, and the WebSocket connect to a chat by its
// id (the index, a connect ticket) against today's connect by name, in alternating rounds.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { openSocket } from "../../test/e2e/ws-client.ts";
import { signUp } from "../lib.mjs";

const CHATS = 1_000;
const ROUNDS = 6;
// Per variant and round: the agents limiter allows 600 connects a minute per client IP.
const CONNECTS = 20;

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const wsBase = (url) => url.replace(/^http/, "ws");

/** Runs one SQL statement on the service's local D1. */
function execute(service, root, sqlText) {
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "d1", "execute", "DB", "--local", "--persist-to", service.persistTo];
  args.push("-c", join(root, "wrangler.jsonc"), "--command", sqlText);
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler d1 execute: ${result.stderr}${result.stdout}`);
}

const upTo = (total) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${total}) `;

/**
 * `total` chats of `userId`, one a second apart in activity, and as many todos (a reference page of
 * the same size from another list), each in one statement.
 */
function seed(service, root, userId, total) {
  execute(
    service,
    root,
    `INSERT INTO todos_table (userId, title, description) ${upTo(total)}` +
      `SELECT ${Number(userId)}, 'Benchmark todo ' || i, 'Seeded for npm run bench' FROM n`,
  );
  const sqlText =
    "INSERT INTO chats_table (id, userId, title, lastActivityAt, lastMessageAt, preview, messageCount) " +
    upTo(total) +
    `SELECT printf('chat_%022d', i), ${Number(userId)}, 'Bench chat ' || i, ` +
    "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' seconds'), " +
    "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' seconds'), 'A preview of the latest answer ' || i, 2 FROM n";
  execute(service, root, sqlText);
}

async function post(url, token, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

/** Milliseconds from the upgrade request to the open socket (a fresh ticket first, not timed). */
async function connectMs(server, user, name, withTicket) {
  let query = "";
  if (withTicket) {
    const { ticket } = await post(`${server.url}/api/agents/tickets`, user.token, {
      agent: "chat-agent",
      name,
    });
    query = `?ticket=${encodeURIComponent(ticket)}`;
  }
  const started = performance.now();
  const socket = await openSocket(`${wsBase(server.url)}/agents/chat-agent/${name}${query}`);
  const ms = performance.now() - started;
  await socket.close();
  return ms;
}

/** Connect times of `variants` (name -> [instance, withTicket]) in alternating rounds, medians and p99s. */
async function connectTimes(server, user, variants) {
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  // Warm-up: each instance exists, and the isolates have every module loaded.
  for (const [instance, withTicket] of Object.values(variants))
    await connectMs(server, user, instance, withTicket);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? names.toReversed() : names) {
      const [instance, withTicket] = variants[name];
      for (let i = 0; i < CONNECTS; i++)
        times[name].push(await connectMs(server, user, instance, withTicket));
    }
  }
  return Object.fromEntries(
    names.map((n) => [
      n,
      {
        p50: median(times[n]),
        p99: times[n].toSorted((a, b) => a - b)[Math.floor(times[n].length * 0.99)],
        samples: times[n].length,
      },
    ]),
  );
}

export async function run({ service, baseline, compare, pairedRatio, ratio, round, startWranglerDev, ROOT }) {
  const user = await signUp(service.url);
  const auth = { Authorization: `Bearer ${user.token}` };
  seed(service, ROOT, user.userId, CHATS);
  const first = await (await fetch(`${service.url}/api/chats?limit=20`, { headers: auth })).json();
  if (first.data?.items?.length !== 20 || first.data.items[0].id !== `chat_${"1".padStart(22, "0")}`) {
    throw new Error(
      `page 1 is not the 20 most recent of ${CHATS} chats: ${JSON.stringify(first).slice(0, 300)}`,
    );
  }
  // A cursor 40 pages in: the keyset seeks the index there.
  let cursor = first.data.nextCursor;
  for (let page = 2; page <= 40; page++) {
    cursor = (
      await (await fetch(`${service.url}/api/chats?limit=20&cursor=${cursor}`, { headers: auth })).json()
    ).data.nextCursor;
  }
  const list = await compare(
    {
      baseline: { url: `${baseline.url}/row` },
      todos: { url: `${service.url}/api/todos?page=1&pageSize=20`, headers: auth },
      page1: { url: `${service.url}/api/chats?limit=20`, headers: auth },
      page41: { url: `${service.url}/api/chats?limit=20&cursor=${cursor}`, headers: auth },
    },
    { rounds: ROUNDS, duration: 2, connections: 10 },
  );

  // Today's connect by name in public mode (no credential) against a chat of the index (a ticket).
  const publicChat = await post(`${service.url}/api/chats`, user.token, {});
  const publicTimes = await connectTimes(service, user, {
    byName: [`bench-${crypto.randomUUID()}`, false],
    byId: [publicChat.id, true],
  });

  // With sign-in on: the same ticket and checks either way, by name `user-<id>-<suffix>` or by id.
  const owned = await startWranglerDev({ vars: { AGENTS_REQUIRE_AUTH: "true" } });
  let ownedTimes;
  try {
    const owner = await signUp(owned.url);
    const chat = await post(`${owned.url}/api/chats`, owner.token, {});
    ownedTimes = await connectTimes(owned, owner, {
      byName: [`user-${owner.userId}-bench`, true],
      byId: [chat.id, true],
    });
  } finally {
    await owned.stop();
  }

  const connectRow = (label, times, reference, goal) => ({
    measure: label,
    "p50 ms": round(times.p50, 2),
    "p99 ms": round(times.p99, 2),
    samples: times.samples,
    ...(reference
      ? { "speed ratio to by name (name p50 / id p50)": ratio(reference.p50, times.p50), goal }
      : {}),
  });
  return {
    title: "Chats: the list with 1,000 chats, and connecting to a chat by id",
    rows: [
      {
        measure: "baseline GET /row (one-row D1 read)",
        "req/s": round(list.baseline.rps),
        "p50 ms": list.baseline.p50,
        "p99 ms": list.baseline.p99,
        errors: list.baseline.errors,
      },
      {
        measure: `GET /api/todos?page=1&pageSize=20 of ${CHATS} todos (reference)`,
        "req/s": round(list.todos.rps),
        "p50 ms": list.todos.p50,
        "p99 ms": list.todos.p99,
        errors: list.todos.errors,
        "ratio req/s to baseline": pairedRatio(list.todos, list.baseline),
      },
      {
        measure: `GET /api/chats?limit=20, page 1 of ${CHATS} chats`,
        "req/s": round(list.page1.rps),
        "p50 ms": list.page1.p50,
        "p99 ms": list.page1.p99,
        errors: list.page1.errors,
        "ratio req/s to baseline": pairedRatio(list.page1, list.baseline),
        "ratio req/s to todos page 1": pairedRatio(list.page1, list.todos),
        goal: "report p50",
      },
      {
        measure: "GET /api/chats?limit=20, page 41 (by cursor)",
        "req/s": round(list.page41.rps),
        "p50 ms": list.page41.p50,
        "p99 ms": list.page41.p99,
        errors: list.page41.errors,
        "p50 ratio to page 1": ratio(list.page41.p50, list.page1.p50),
      },
      connectRow("WebSocket connect by name, public mode (no credential)", publicTimes.byName),
      connectRow(
        "WebSocket connect by id, public mode (ticket)",
        publicTimes.byId,
        publicTimes.byName,
        ">= 0.9",
      ),
      connectRow("WebSocket connect by name user-<id>-bench, sign-in on (ticket)", ownedTimes.byName),
      connectRow(
        "WebSocket connect by id, sign-in on (ticket)",
        ownedTimes.byId,
        ownedTimes.byName,
        ">= 0.9",
      ),
    ],
    notes: [
      `Seeded ${CHATS} chats of one user (and ${CHATS} todos, for the reference row) with one INSERT each through wrangler d1 execute --local; the bench checks page 1 holds the 20 most recent.`,
      "A list page: the bearer check (its user lookup reused for 2 s per isolate), then one indexed D1 read of 21 rows on (userId, lastActivityAt, id); no chat is woken.",
      `Connect: milliseconds from the upgrade request to the open socket, ${CONNECTS} connects per variant and round, ${ROUNDS} rounds in alternating order, each after a fresh ticket (not timed). By id, the gate reads the chat's owner from the index while it checks the ticket.`,
      "Public mode: a connect by name does no credential check at all, a chat id always needs one, so that ratio includes the ticket check; with sign-in on both do the same checks, and the ratio is the index's own cost.",
    ],
  };
}
