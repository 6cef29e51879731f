// Nothing lost, nothing late: `total` writes at `connections` for a fresh user with the live feed open,
// then the user's todos, change-log rows (read in D1) and the events the socket heard, each counted.
import { join } from "node:path";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { signUp } from "../lib.mjs";
import { d1Select } from "./d1.mjs";
import { openServiceFeed, todoEvents } from "./listeners.mjs";

const percentile = (values, p) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null;
};

/** Resolves once `count()` reaches `want` or has not moved for `quietMs`. */
async function settle(count, want, quietMs = 5_000) {
  let last = -1;
  let since = performance.now();
  while (count() < want && performance.now() - since < quietMs) {
    if (count() !== last) [last, since] = [count(), performance.now()];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function integrity({ service, load, round }, { total = 10_000, connections = 32 } = {}) {
  const user = await signUp(service.url);
  const feed = await openServiceFeed(service.url, user);
  const answeredAt = new Map();
  const started = performance.now();
  const result = await load({
    url: service.url,
    connections,
    amount: total,
    requests: [
      {
        method: "POST",
        path: "/api/todos",
        headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Integrity todo" }),
        onResponse: (status, body) => {
          if (status === 201) answeredAt.set(JSON.parse(body).data.id, performance.now());
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  await settle(() => todoEvents(feed).length, answeredAt.size);
  const events = todoEvents(feed);
  await feed.close();
  // Heard before autocannon had read the answer counts as 0 ms.
  const lags = events.map((e) => Math.max(0, e.at - (answeredAt.get(e.data.id) ?? Infinity)));
  const [counts] = d1Select(
    join(ROOT, "wrangler.jsonc"),
    service.persistTo,
    "DB",
    `SELECT (SELECT count(*) FROM todos_table WHERE userId = ${Number(user.userId)}) AS todos, ` +
      `(SELECT count(*) FROM todo_changes_table WHERE userId = ${Number(user.userId)}) AS changes`,
  );
  const distinct = new Set(events.map((e) => e.data.id)).size;
  return {
    title: `Writes: nothing lost, nothing late (${total} POST /api/todos at ${connections} connections)`,
    rows: [
      {
        "2xx answers": answeredAt.size,
        errors: result.errors + result.non2xx,
        "todos in D1": counts.todos,
        "change rows in D1": counts.changes,
        "events heard (distinct)": `${events.length} (${distinct})`,
        "events later than 1 s": lags.filter((ms) => ms > 1_000).length,
        "event after answer p50 / p99 / max ms": `${round(percentile(lags, 50))} / ${round(percentile(lags, 99))} / ${round(Math.max(...lags))}`,
        "writes/s": round(answeredAt.size / seconds),
      },
    ],
    notes: [
      "A fresh user, its live feed open on one WebSocket (with a connect ticket) while the writes run; the counts are read in D1 (wrangler d1 execute) once the socket has heard every answered write or 5 s pass with nothing new.",
      "Event after answer: when the socket heard the todo.created event, from when autocannon read the write's 201 (the same clock).",
    ],
  };
}
