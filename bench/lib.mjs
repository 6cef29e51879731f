// Shared pieces of `npm run bench`: load generation and result formatting.
import autocannon from "autocannon";

export { signUp } from "../scripts/lib/sign-up.mjs";

/**
 * Drives `url` with autocannon and summarises the result.
 * @param {{ url: string, method?: string, headers?: Record<string,string>, body?: string | Buffer,
 *   connections?: number, duration?: number, amount?: number, requests?: object[] }} opts
 */
export async function load(opts) {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? "GET",
    headers: opts.headers,
    body: opts.body,
    requests: opts.requests,
    connections: opts.connections ?? 10,
    // autocannon rejects an explicit `duration: undefined` next to `amount`.
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration ?? 5 }),
    timeout: 30,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    bytesPerSec: result.throughput.average,
  };
}

/** For the reference rows against the baseline with static assets (bench/baseline/wrangler.assets.jsonc). */
export const ASSETS_NOTE =
  "Baseline with static assets: the same baseline Worker with an assets directory and run_worker_first, " +
  "as the service serves /docs' Scalar bundle; under wrangler dev each request then passes the assets router first.";

export const ratio = (a, b) => (b > 0 ? Number((a / b).toFixed(2)) : null);
export const round = (n, digits = 1) => (typeof n === "number" ? Number(n.toFixed(digits)) : n);

/** Renders one scenario's `{ title, rows, notes }` as markdown. */
export function toMarkdown({ title, rows, notes = [] }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const lines = [`### ${title}`, ""];
  if (columns.length > 0) {
    lines.push(`| ${columns.join(" | ")} |`, `| ${columns.map(() => "---").join(" | ")} |`);
    for (const row of rows) lines.push(`| ${columns.map((c) => format(row[c])).join(" | ")} |`);
    lines.push("");
  }
  for (const note of notes) lines.push(`- ${note}`);
  return lines.join("\n");
}

function format(value) {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") return String(round(value, 2));
  return String(value);
}

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Loads each target in rounds (A, B, C, then C, B, A, ...) so a noisy neighbour and a target's
 * place in the round hit all alike, and reports per-target medians over the rounds. `perRound`
 * keeps each round's req/s for `pairedRatio`.
 * @param {Record<string, object>} targets name -> load() options
 */
export async function compare(targets, { rounds = 6, duration = 2, connections = 10 } = {}) {
  const names = Object.keys(targets);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const name of i % 2 ? names.toReversed() : names) {
      runs[name].push(await load({ connections, duration, ...targets[name] }));
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      {
        rps: median(list.map((r) => r.rps)),
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        errors: list.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
        requests: list.reduce((sum, r) => sum + r.requests, 0),
        perRound: list.map((r) => r.rps),
      },
    ]),
  );
}

/**
 * The median over rounds of a's req/s over b's in the same round (two `compare` results). On a
 * shared machine the load drifts between rounds; a ratio of the two medians mixes rounds, this
 * one never does.
 */
export function pairedRatio(a, b) {
  return ratio(median(a.perRound.map((rps, i) => rps / b.perRound[i])), 1);
}

/**
 * The user Worker's isolate heap over wrangler dev's inspector (Chrome DevTools protocol):
 * `Runtime.getHeapUsage` usedSize + backingStorageSize (ArrayBuffers live outside the JS heap).
 * Process RSS would measure the wrong thing: wrangler's proxy and the local R2/D1 simulators
 * run in workerd processes of their own.
 */
export async function openIsolateMeter(inspectorPort) {
  const { call, close } = await openInspector(inspectorPort);
  const bytes = async () => {
    const usage = await call("Runtime.getHeapUsage");
    return usage.usedSize + (usage.backingStorageSize ?? 0);
  };
  // workerd answers getHeapUsage only once the Runtime domain is enabled (and ignores HeapProfiler.collectGarbage).
  await call("Runtime.enable");
  return {
    bytes,
    /** Samples every `intervalMs` while `work` runs; resolves to work's result and the peak. */
    async peakDuring(work, intervalMs = 20) {
      let peak = await bytes();
      let stop;
      const stopped = new Promise((resolve) => (stop = resolve));
      const sampler = (async () => {
        for (;;) {
          peak = Math.max(peak, await bytes());
          const tick = new Promise((resolve) => setTimeout(() => resolve(false), intervalMs));
          if (await Promise.race([stopped, tick])) return;
        }
      })();
      try {
        const result = await work();
        return { result, peak: Math.max(peak, await bytes()) };
      } finally {
        stop(true);
        await sampler;
      }
    },
    close,
  };
}

/**
 * The user Worker's isolate over wrangler dev's inspector (Chrome DevTools protocol): `call(method,
 * params)` sends one command and resolves to its result.
 */
export async function openInspector(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  if (!target) throw new Error("no inspector target for the Worker");
  // The inspector proxy only accepts local or DevTools origins; Node's WebSocket (undici) sends none by itself.
  const socket = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}
