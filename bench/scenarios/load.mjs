// Mixed load: 10,000 operations from 64 concurrent workers against wrangler dev --local (one login,
// then list, create, update with attachments, download, counter RPC over WebSocket), then every
// created todo is read back and compared with the attachments last submitted for it.
import { openSocket } from "../../test/e2e/ws-client.ts";
import { signUp } from "../lib.mjs";

const TOTAL = 10_000;
const CONCURRENCY = 64;
const FILES = 16;
const SOCKETS = 8;
// Share of each operation in the mix, after the one login.
const MIX = [
  ["list", 0.25],
  ["create", 0.25],
  ["update", 0.2],
  ["download", 0.15],
  ["rpc", 0.15],
];

const percentile = (values, p) => {
  if (values.length === 0) return null;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const sameSet = (a, b) => a.length === b.length && a.toSorted().every((k, i) => k === b.toSorted()[i]);

const data = ({ body }) => JSON.parse(Buffer.from(body).toString()).data;

/** A deterministic mix: the same sequence of operations on every run. */
function schedule() {
  let x = 0x2545f491;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const ops = ["login"];
  while (ops.length < TOTAL) {
    let r = next();
    ops.push(MIX.find(([, share]) => (r -= share) < 0)?.[0] ?? "list");
  }
  return { ops, next };
}

async function setUp(url) {
  const { username, password, token } = await signUp(url);
  const keys = [];
  for (let i = 0; i < FILES; i++) {
    const form = new FormData();
    form.append("directory", "load");
    form.append("file", new Blob([`attachment ${i} `.repeat(64)], { type: "text/plain" }), `file-${i}.txt`);
    const res = await fetch(`${url}/api/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    keys.push((await res.json()).data);
  }
  return { username, password, files: keys };
}

export async function run({ service, round }) {
  const url = service.url;
  const { username, password, files } = await setUp(url);
  const { ops, next } = schedule();
  const pick = (list) => list[Math.floor(next() * list.length)];
  const someKeys = (max) => [
    ...new Set(Array.from({ length: Math.floor(next() * (max + 1)) }, () => pick(files).key)),
  ];

  const counter = `load-${crypto.randomUUID()}`;
  const sockets = await Promise.all(
    Array.from({ length: SOCKETS }, () =>
      openSocket(`${url.replace(/^http/, "ws")}/agents/counter-agent/${counter}`),
    ),
  );
  let rpcCalls = 0;

  let token;
  const latencies = Object.fromEntries(["login", ...MIX.map(([name]) => name)].map((name) => [name, []]));
  const errors = [];
  /** Created todos: id -> the attachment keys last submitted (creates and updates of one todo never overlap). */
  const expected = new Map();
  const idle = [];

  const http = async (path, init = {}) => {
    const res = await fetch(`${url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...init.headers },
    });
    const body = await res.arrayBuffer();
    if (res.status < 200 || res.status >= 300) {
      throw new Error(
        `${init.method ?? "GET"} ${path}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`,
      );
    }
    return { res, body };
  };
  const postJson = (path, json) =>
    http(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(json),
    });

  const operations = {
    async login() {
      const res = await fetch(`${url}/api/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username, password }),
      });
      if (res.status !== 201) throw new Error(`login: ${res.status} ${await res.text()}`);
      token = (await res.json()).data.token;
    },
    async list() {
      await http(`/api/todos?page=${1 + Math.floor(next() * 3)}&pageSize=20`);
    },
    async create() {
      const keys = someKeys(3);
      const todo = data(
        await postJson("/api/todos", { title: "load", attachments: keys.map((fileKey) => ({ fileKey })) }),
      );
      const stored = todo.attachments.map((a) => a.fileKey);
      if (!sameSet(stored, keys)) throw new Error(`create ${todo.id}: attachments ${stored} != ${keys}`);
      expected.set(todo.id, keys);
      idle.push(todo.id);
    },
    async update() {
      const id = idle.splice(Math.floor(next() * idle.length), 1)[0];
      if (id === undefined) throw new Error("no idle todo");
      const keys = someKeys(4);
      try {
        const todo = data(
          await postJson(`/api/todos/${id}`, {
            title: `updated ${id}`,
            completed: next() < 0.5,
            attachments: keys.map((fileKey) => ({ fileKey })),
          }),
        );
        expected.set(id, keys);
        const stored = todo.attachments.map((a) => a.fileKey);
        if (!sameSet(stored, keys)) throw new Error(`update ${id}: attachments ${stored} != ${keys}`);
      } finally {
        idle.push(id);
      }
    },
    async download() {
      const file = pick(files);
      const { body } = await http(`/api/download/${encodeURIComponent(file.key)}`);
      if (body.byteLength !== file.size)
        throw new Error(`download ${file.key}: ${body.byteLength} of ${file.size} bytes`);
    },
    async rpc() {
      const reply = await sockets[rpcCalls % SOCKETS].rpc("increment");
      if (!reply.success) throw new Error(`rpc: ${reply.error}`);
      rpcCalls++;
    },
  };

  // The login goes first; everything else needs its token.
  let cursor = 0;
  const runOne = async (scheduled) => {
    // Early on there may be no todo to update yet: create one instead.
    const name = scheduled === "update" && idle.length === 0 ? "create" : scheduled;
    const started = performance.now();
    try {
      await operations[name]();
      latencies[name].push(performance.now() - started);
    } catch (err) {
      errors.push(`${name}: ${err instanceof Error ? err.message : err}`);
    }
  };
  const started = performance.now();
  await runOne(ops[cursor++]);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (cursor < ops.length) await runOne(ops[cursor++]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  // Read back: every created todo with exactly the attachments last submitted, and the counter.
  const ids = [...expected.keys()];
  let lost = 0;
  const mismatches = [];
  for (let i = 0; i < ids.length; i += CONCURRENCY) {
    await Promise.all(
      ids.slice(i, i + CONCURRENCY).map(async (id) => {
        const res = await fetch(`${url}/api/todos/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        const stored = res.status === 200 ? (await res.json()).data.attachments.map((a) => a.fileKey) : null;
        if (!stored || !sameSet(stored, expected.get(id))) {
          lost++;
          if (mismatches.length < 5)
            mismatches.push(`todo ${id}: ${res.status} ${stored} != ${expected.get(id)}`);
        }
      }),
    );
  }
  const total = (
    await (
      await fetch(`${url}/api/todos?pageSize=1`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()
  ).data.total;
  if (total !== ids.length) {
    lost += Math.abs(total - ids.length);
    mismatches.push(`list total ${total}, created ${ids.length}`);
  }
  const count = (await (await fetch(`${url}/agents/counter-agent/${counter}`)).json()).count;
  if (count !== rpcCalls) {
    lost += Math.abs(count - rpcCalls);
    mismatches.push(`counter ${count}, increments ${rpcCalls}`);
  }
  await Promise.all(sockets.map((s) => s.close()));

  const all = Object.values(latencies).flat();
  const row = (name, values) => ({
    operation: name,
    requests: values.length,
    "p50 ms": round(percentile(values, 50), 1),
    "p99 ms": round(percentile(values, 99), 1),
  });
  const done = all.length + errors.length;
  const result = {
    title: `Mixed load: ${done.toLocaleString("en")} operations, ${CONCURRENCY} concurrent workers (wrangler dev --local, loopback)`,
    rows: [
      ...Object.entries(latencies).map(([name, values]) => row(name, values)),
      { ...row("total", all), "ops/s": round(done / seconds, 0), errors: errors.length, "lost writes": lost },
    ],
    notes: [
      `${done} operations in ${seconds.toFixed(1)} s; ${errors.length} errors (non-2xx, network or RPC errors).`,
      `Read back ${ids.length} created todos: ${lost} lost or different writes (attachments compared with the last submitted set; ` +
        `list total ${total}; counter ${count} after ${rpcCalls} increments).`,
      "Counter RPC runs over 8 WebSockets to one instance (frames are not HTTP requests, so AGENTS_LIMITER counts 8).",
      ...errors.slice(0, 5).map((e) => `error: ${e}`),
      ...mismatches.map((m) => `mismatch: ${m}`),
    ],
  };
  if (done !== TOTAL || errors.length > 0 || lost > 0) {
    throw new Error(`load failed:\n${JSON.stringify(result, null, 2)}`);
  }
  return result;
}
