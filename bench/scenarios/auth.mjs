// Login cost (PBKDF2), the token gate's overhead against /health, login timing parity between an
// unknown username and a wrong password, refresh latency, the gate with an API key against the gate
// with a session's JWT, and password-reset timing parity between a known and an unknown address.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";

const PASSWORD = "bench password 0123456789";

/**
 * The i-th simulated client's address, from 198.18.0.0/15 (RFC 2544, set aside for benchmarks). The
 * per-IP limiters (20 registrations, 100 logins a minute) would otherwise measure themselves:
 * wrangler dev passes the header through, where Cloudflare would set it.
 */
const clientIp = (i) => `198.18.${Math.floor(i / 256) % 256}.${i % 256}`;

async function postJson(url, body, ip) {
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  return { status: res.status, json, ms: performance.now() - started };
}

async function registerUsers(url, count, firstClient) {
  const users = [];
  for (let i = 0; i < count; i++) {
    const username = `bench_${randomUUID().slice(0, 12)}`;
    const ip = clientIp(firstClient + i);
    const res = await postJson(
      `${url}/api/register`,
      { username, password: PASSWORD, name: "Bench", email: `${username}@bench.test` },
      ip,
    );
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${JSON.stringify(res.json)}`);
    const { userId, token, refreshToken } = res.json.data;
    users.push({ username, ip, userId, token, refreshToken, email: `${username}@bench.test` });
  }
  return users;
}

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** Long enough for the work a password-reset request leaves running (100 ms later) to be over. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const percentile = (values, p) => values.toSorted((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];

/** `count` refreshes in a row, each spending the token the one before answered; latencies in ms. */
async function refreshChain(url, user, count) {
  const latencies = [];
  let refreshToken = user.refreshToken;
  for (let i = 0; i < count; i++) {
    const res = await postJson(`${url}/api/auth/refresh`, { refreshToken }, user.ip);
    if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${JSON.stringify(res.json)}`);
    refreshToken = res.json.data.refreshToken;
    latencies.push(res.ms);
  }
  return latencies;
}

async function createKey(url, user, scopes) {
  const res = await fetch(`${url}/api/keys`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Authorization: `Bearer ${user.token}`,
      "CF-Connecting-IP": user.ip,
    },
    body: JSON.stringify({ name: "bench", scopes }),
  });
  if (res.status !== 201) throw new Error(`POST /api/keys answered ${res.status}`);
  return (await res.json()).data.key;
}

/** The iteration count as stored in the local D1 of the running service. */
function storedIterations(service, ROOT) {
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      service.persistTo,
      "--json",
      "--command",
      "SELECT passwordHash FROM user_credentials_table LIMIT 1",
    ],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  const hash = JSON.parse(result.stdout)[0]?.results?.[0]?.passwordHash ?? "";
  return Number(hash.split("$")[1]) || null;
}

export async function run({ service, load, compare, pairedRatio, ratio, round, ROOT }) {
  const url = service.url;
  // At ~20-40 ms a login, 5 s on one connection stays under 400 logins: 100 users keep each under the limit.
  const loginSeconds = 5;
  const loginUsers = await registerUsers(url, 100, 0);
  const parityTries = 100;
  const parityUsers = await registerUsers(url, Math.ceil(parityTries / 4), 1_000);
  // A same-sized pool of unknown names, so both sides reuse limiter keys alike.
  const unknownNames = parityUsers.map(() => `nobody_${randomUUID().slice(0, 12)}`);

  // 1. Login, one connection: the PBKDF2 derivation dominates.
  const login = await load({
    url: `${url}/api/login`,
    connections: 1,
    duration: loginSeconds,
    requests: loginUsers.map((user) => ({
      method: "POST",
      path: "/api/login",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": user.ip },
      body: JSON.stringify({ username: user.username, password: PASSWORD }),
    })),
  });

  // 2. An authenticated read of one's own profile against /health, same run, alternating rounds.
  const self = loginUsers[0];
  const rounds = 6;
  const duration = 2;
  const connections = 10;
  const r = await compare(
    {
      health: { url: `${url}/health` },
      self: { url: `${url}/api/users/${self.userId}`, headers: { Authorization: `Bearer ${self.token}` } },
    },
    { rounds, duration, connections },
  );

  // 3. Unknown username vs wrong password, alternated so noise hits both alike.
  const unknown = [];
  const wrong = [];
  for (let i = 0; i < parityTries; i++) {
    const user = parityUsers[i % parityUsers.length];
    // Both sides from the same address, one per user, so each limiter key sees a few tries.
    const a = await postJson(
      `${url}/api/login`,
      { username: unknownNames[i % unknownNames.length], password: PASSWORD },
      user.ip,
    );
    const b = await postJson(
      `${url}/api/login`,
      { username: user.username, password: `${PASSWORD}!` },
      user.ip,
    );
    if (a.status !== 401 || b.status !== 401)
      throw new Error(`expected 401s, got ${a.status} and ${b.status}`);
    unknown.push(a.ms);
    wrong.push(b.ms);
  }
  const parity = ratio(median(unknown), median(wrong));
  const gateRatio = pairedRatio(r.self, r.health);
  const iterations = storedIterations(service, ROOT);

  // 4. Refresh: a chain of rotations on one session (a D1 read and one batch of three writes each).
  const refreshes = 200;
  const refreshMs = await refreshChain(url, loginUsers[1], refreshes);

  // 5. The same read through the gate with an API key and with a session's JWT, alternating rounds.
  const keyUser = loginUsers[2];
  const key = await createKey(url, keyUser, ["todos:read"]);
  const page = `${url}/api/todos?pageSize=1`;
  const k = await compare(
    {
      jwt: { url: page, headers: { Authorization: `Bearer ${keyUser.token}` } },
      key: { url: page, headers: { Authorization: `Bearer ${key}` } },
    },
    { rounds, duration, connections },
  );
  const keyRatio = pairedRatio(k.key, k.jwt);

  // 6. Password reset: a known and an unknown address, in alternating order; each address once (its
  // limiter allows 3 a minute), each pair from an address of its own (10 a minute per IP). Each answer
  // is timed alone: the next request waits until the work the previous one left (the lookup, the
  // e-mail) is over, since locally the simulated D1 and Email Service share workerd's thread.
  const known = [];
  const nobody = [];
  for (const [i, user] of parityUsers.entries()) {
    const ip = clientIp(2_000 + i);
    const stranger = `nobody_${randomUUID().slice(0, 12)}@bench.test`;
    const ask = async (email, into) => {
      into.push((await postJson(`${url}/api/auth/password-reset`, { email }, ip)).ms);
      await settle();
    };
    if (i % 2) {
      await ask(user.email, known);
      await ask(stranger, nobody);
    } else {
      await ask(stranger, nobody);
      await ask(user.email, known);
    }
  }
  const resetParity = ratio(median(known), median(nobody));

  return [
    {
      title: "POST /api/login, one connection",
      rows: [
        {
          "PBKDF2 iterations": iterations,
          logins: login.requests,
          "req/s": round(login.rps),
          "p50 ms": login.p50,
          "p99 ms": login.p99,
          "non-2xx": login.non2xx,
          errors: login.errors,
        },
      ],
      notes: [
        `${loginSeconds} s, cycling over ${loginUsers.length} users (the limiters allow 10 a minute per IP + username and 100 per IP), each user from an address of its own.`,
        "One 100k PBKDF2-SHA256 derivation is most of each login; on the Free plan (10 ms CPU) it can exceed the limit.",
      ],
    },
    {
      title: "GET /api/users/:self (token gate, then one D1 read) vs GET /health, same run",
      rows: [
        {
          route: "/health",
          "req/s": r.health.rps,
          "p50 ms": r.health.p50,
          "p99 ms": r.health.p99,
          errors: r.health.errors,
        },
        {
          route: "/api/users/:self",
          "req/s": r.self.rps,
          "p50 ms": r.self.p50,
          "p99 ms": r.self.p99,
          errors: r.self.errors,
          "ratio to /health": gateRatio,
        },
      ],
      notes: [
        `${connections} connections, ${rounds} rounds of ${duration} s in alternating order; medians, the ratio of same-round pairs. Target: ratio >= 0.7 (${gateRatio >= 0.7 ? "met" : "NOT met"}).`,
      ],
    },
    {
      title: "POST /api/auth/refresh, one after another on one session",
      rows: [
        {
          refreshes,
          "p50 ms": round(median(refreshMs), 2),
          "p99 ms": round(percentile(refreshMs, 99), 2),
        },
      ],
      notes: [
        "Sequential, each request spending the refresh token the one before answered: a D1 read of the token with its session and user, then one batch (spend it, store its successor, touch the session), and a JWT signed.",
      ],
    },
    {
      title: "GET /api/todos?pageSize=1 with an API key vs with a session's JWT, same run",
      rows: [
        {
          credential: "session JWT",
          "req/s": k.jwt.rps,
          "p50 ms": k.jwt.p50,
          "p99 ms": k.jwt.p99,
          errors: k.jwt.errors,
        },
        {
          credential: "API key (todos:read)",
          "req/s": k.key.rps,
          "p50 ms": k.key.p50,
          "p99 ms": k.key.p99,
          errors: k.key.errors,
          "ratio to JWT": keyRatio,
        },
      ],
      notes: [
        `${connections} connections, ${rounds} rounds of ${duration} s in alternating order; medians, the ratio of same-round pairs. Target: ratio >= 0.9 (${keyRatio >= 0.9 ? "met" : "NOT met"}).`,
        "Both gates reuse their lookup for 2 s per isolate (the key's by its SHA-256, the JWT's by session); the key's scope is read from the route's OpenAPI security.",
      ],
    },
    {
      title: "Password reset timing: known vs unknown address",
      rows: [
        { case: "known address", tries: known.length, "median ms": round(median(known), 2) },
        { case: "unknown address", tries: nobody.length, "median ms": round(median(nobody), 2) },
        { case: "ratio known / unknown", "median ms": resetParity },
      ],
      notes: [
        `Sequential, alternating order, each answer timed alone (300 ms apart). Target 0.9..1.1 (${resetParity >= 0.9 && resetParity <= 1.1 ? "met" : "NOT met"}): the lookup and the e-mail run after the answer (waitUntil, 100 ms later).`,
      ],
    },
    {
      title: "Login timing: unknown username vs wrong password",
      rows: [
        { case: "unknown username", tries: parityTries, "median ms": round(median(unknown), 2) },
        { case: "wrong password", tries: parityTries, "median ms": round(median(wrong), 2) },
        { case: "ratio unknown / wrong", "median ms": parity },
      ],
      notes: [
        `Sequential, alternating A/B. Target 0.9..1.1 (${parity >= 0.9 && parity <= 1.1 ? "met" : "NOT met"}): the unknown-user path derives against a dummy hash.`,
      ],
    },
  ];
}
