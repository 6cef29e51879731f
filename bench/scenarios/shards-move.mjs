// A move of a 10,000-todo workspace to another shard (POST /api/admin/workspaces/{id}/move) while 4 clients
// keep creating todos in it: how long the move takes, how long writes were refused (the fence: the longest
// run of 503s a client saw, and the mover's own fence-to-switch time), and that no write was lost.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { signUp } from "../lib.mjs";

const TODOS = 10_000;
const WRITERS = 4;

function d1(service, root, binding, sqlText) {
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "d1", "execute", binding, "--local", "--persist-to", service.persistTo];
  args.push("-c", join(root, "wrangler.jsonc"), "--command", sqlText);
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler d1 execute: ${result.stderr}${result.stdout}`);
}

async function call(url, path, token, init = {}) {
  const res = await fetch(`${url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...init.headers },
  });
  return { status: res.status, retryAfter: res.headers.get("Retry-After"), body: await res.json() };
}

/** Creates todos back to back until `stop()`; the ids that landed, the 503s, and the longest run of them. */
function writer(url, token, name) {
  const landed = [];
  let refused = 0;
  let longest = 0;
  let refusedSince = null;
  // Read by the loop, set by stop(): an object, so the loop sees the change.
  const state = { stopped: false };
  const done = (async () => {
    for (let i = 0; !state.stopped; i++) {
      const res = await call(url, "/api/todos", token, {
        method: "POST",
        body: JSON.stringify({ title: `${name} ${i}` }),
      });
      if (res.status === 201) {
        landed.push(res.body.data.id);
        if (refusedSince !== null) longest = Math.max(longest, performance.now() - refusedSince);
        refusedSince = null;
      } else if (res.status === 503 && res.retryAfter) {
        refused++;
        refusedSince ??= performance.now();
      } else throw new Error(`write: ${res.status} ${JSON.stringify(res.body)}`);
    }
  })();
  return {
    stop: async () => {
      state.stopped = true;
      await done;
      return { landed, refused, longest };
    },
  };
}

export async function run({ service, round, ROOT }) {
  const [owner, admin] = [await signUp(service.url), await signUp(service.url)];
  d1(service, ROOT, "DB", `UPDATE users_table SET role = 'admin' WHERE id = ${Number(admin.userId)}`);
  const login = await fetch(`${service.url}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: admin.username, password: admin.password }),
  });
  const adminToken = (await login.json()).data.token;
  const found = await call(service.url, `/api/admin/workspaces?userId=${owner.userId}`, adminToken);
  const workspace = found.body.data.items[0];
  if (!workspace) throw new Error(`no workspace: ${JSON.stringify(found.body)}`);
  d1(
    service,
    ROOT,
    workspace.shard,
    "INSERT INTO todos_table (userId, title, description, completed) " +
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TODOS}) ` +
      `SELECT ${Number(owner.userId)}, 'Benchmark todo ' || i, 'Seeded for npm run bench', i % 2 FROM n`,
  );
  const target = workspace.shard === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0";

  const writers = Array.from({ length: WRITERS }, (_, i) => writer(service.url, owner.token, `w${i}`));
  const started = performance.now();
  const move = await call(service.url, `/api/admin/workspaces/${workspace.id}/move`, adminToken, {
    method: "POST",
    body: JSON.stringify({ shard: target }),
  });
  if (move.status !== 202) throw new Error(`move: ${move.status} ${JSON.stringify(move.body)}`);
  let plan;
  for (;;) {
    plan = (await call(service.url, `/api/admin/workspaces/${workspace.id}`, adminToken)).body.data.move;
    if (plan.phase === "done" || plan.phase === "failed") break;
    if (performance.now() - started > 300_000) throw new Error(`move stuck at ${plan.phase}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsed = performance.now() - started;
  // A little longer, so the writers see the target serve them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const results = await Promise.all(writers.map((w) => w.stop()));
  if (plan.phase !== "done") throw new Error(`move failed: ${plan.failure}`);

  const landed = results.flatMap((r) => r.landed);
  const total = (await call(service.url, "/api/todos?pageSize=1", owner.token)).body.data.total;
  const lost = TODOS + landed.length - total;
  if (lost !== 0) throw new Error(`${lost} writes lost (${total} todos, ${TODOS + landed.length} written)`);
  return {
    title: `Move of a ${TODOS.toLocaleString("en")}-todo workspace under ${WRITERS} concurrent writers`,
    rows: [
      { measure: "move, POST to done (ms)", value: round(elapsed, 0) },
      { measure: "fence, mover's fence to switch (ms)", value: plan.fenceMs },
      {
        measure: "longest run of 503s one client saw (ms)",
        value: round(Math.max(...results.map((r) => r.longest)), 0),
      },
      { measure: "writes that landed", value: landed.length },
      { measure: "writes answered 503 (sent again)", value: results.reduce((n, r) => n + r.refused, 0) },
      { measure: "rows written on the target", value: plan.written },
      { measure: "lost writes", value: lost },
    ],
    notes: [`${workspace.shard} -> ${target}; every 503 carried Retry-After; a lost write fails the run.`],
  };
}
