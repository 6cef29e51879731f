// Authenticated GET /api/todos with 10,000 todos for one user: first page against the baseline's
// one-row D1 read, and a deep page (400) against the first.
async function signUp(url) {
  const username = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const res = await fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username,
      password: `pw-${crypto.randomUUID()}`,
      name: "Bench",
      email: `${username}@example.test`,
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return (await res.json()).data.token;
}

const TODOS = 10_000;

/** `total` POSTs over `connections` concurrent fetch loops; returns the number that failed. */
async function seed(url, headers, total, connections = 16) {
  let next = 0;
  let failed = 0;
  const body = JSON.stringify({ title: "Benchmark todo", description: "Seeded through POST /api/todos" });
  const worker = async () => {
    while (next < total) {
      next++;
      const res = await fetch(url, { method: "POST", headers, body });
      if (res.status !== 201) failed++;
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return failed;
}

export async function run({ service, baseline, compare, ratio, round }) {
  const token = await signUp(service.url);
  const auth = { Authorization: `Bearer ${token}` };

  const seedStarted = performance.now();
  const failed = await seed(
    `${service.url}/api/todos`,
    { ...auth, "Content-Type": "application/json" },
    TODOS,
  );
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const check = await (await fetch(`${service.url}/api/todos?pageSize=1`, { headers: auth })).json();
  if (check.data.total !== TODOS) throw new Error(`seeded ${check.data.total} todos, expected ${TODOS}`);

  const r = await compare(
    {
      baseline: { url: `${baseline.url}/row` },
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
      row("page1", "service page 1", {
        "ratio req/s to baseline": ratio(r.page1.rps, r.baseline.rps),
        goal: "req/s ratio >= 0.7",
      }),
      row("page400", "service page 400", {
        "p50 ratio to page 1": ratio(r.page400.p50, r.page1.p50),
        goal: "p50 ratio <= 1.5",
      }),
    ],
    notes: [
      `Seeded ${TODOS} todos through POST /api/todos in ${round(seedSeconds)} s (${round(TODOS / seedSeconds)} req/s, ${failed} failed).`,
      "Each page is the JWT check (one D1 user lookup), then one D1 batch: the page by id from the (userId, id) index, and the count.",
      "10 connections, 3 alternating rounds of 4 s; medians.",
    ],
  };
}
