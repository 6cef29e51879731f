// Agents: counter RPC over WebSocket (1 and 50 clients), state fan-out to 50 clients, and chat streaming
// overhead (scripted OpenAI-compatible model chunk written -> UI chunk received by the WebSocket client).
import { openSocket } from "../../test/e2e/ws-client.ts";
import { startScriptedServer } from "../../test/fakes/openai-compatible.ts";

const percentile = (values, p) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const wsBase = (url) => url.replace(/^http/, "ws");
const isState = (d) => d?.type === "cf_agent_state";

async function connectMany(url, count) {
  const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(url)));
  await Promise.all(sockets.map((s) => s.waitFor(isState)));
  return sockets;
}

/** Each client calls increment() back to back for `ms`; returns calls/s and per-call latency. */
async function rpcLoad(sockets, ms) {
  const latencies = [];
  const until = performance.now() + ms;
  await Promise.all(
    sockets.map(async (socket) => {
      while (performance.now() < until) {
        const started = performance.now();
        const reply = await socket.rpc("increment");
        if (!reply.success) throw new Error(reply.error);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { calls: latencies.length, perSecond: latencies.length / (ms / 1000), latencies };
}

async function counterRows(service, round) {
  const url = `${wsBase(service.url)}/agents/counter-agent/bench-${crypto.randomUUID()}`;
  const rows = [];

  const [single] = await connectMany(url, 1);
  await rpcLoad([single], 500);
  const one = await rpcLoad([single], 5_000);
  rows.push({
    measure: "increment() RPC over WebSocket, 1 client",
    "msgs/s": round(one.perSecond, 0),
    "p50 ms": percentile(one.latencies, 50),
    "p99 ms": percentile(one.latencies, 99),
    samples: one.calls,
  });
  await single.close();

  const fifty = await connectMany(url, 50);
  const many = await rpcLoad(fifty, 5_000);
  rows.push({
    measure: "increment() RPC over WebSocket, 50 clients (each call broadcast to all 50)",
    "msgs/s": round(many.perSecond, 0),
    "frames out/s": round(many.perSecond * 51, 0),
    "p50 ms": percentile(many.latencies, 50),
    "p99 ms": percentile(many.latencies, 99),
    samples: many.calls,
  });

  // Fan-out: one increment until every one of the 50 clients holds the new count.
  const fanout = [];
  for (let i = 0; i < 200; i++) {
    const marks = fifty.map((s) => s.frames.length);
    const started = performance.now();
    const { result } = await fifty[0].rpc("increment");
    const seen = await Promise.all(
      fifty.map((s, k) => s.waitFor((d) => isState(d) && d.state.count === result, 10_000, marks[k])),
    );
    fanout.push(Math.max(...seen.map((f) => f.at)) - started);
  }
  rows.push({
    measure: "fan-out: increment() until all 50 clients have the new count",
    "p50 ms": percentile(fanout, 50),
    "p99 ms": percentile(fanout, 99),
    samples: fanout.length,
  });
  await Promise.all(fifty.map((s) => s.close()));
  return rows;
}

async function chatRows(startWranglerDev) {
  const model = await startScriptedServer({ chunkDelayMs: 2 });
  const worker = await startWranglerDev({ vars: { AI_BASE_URL: model.baseURL, AI_MODEL: "scripted-model" } });
  try {
    const socket = await openSocket(`${wsBase(worker.url)}/agents/chat-agent/bench-${crypto.randomUUID()}`);
    const turn = async (id, chunks) => {
      const messages = [
        { id: `u-${id}`, role: "user", parts: [{ type: "text", text: `[script:chunks:${chunks}]` }] },
      ];
      const from = socket.frames.length;
      socket.send({
        type: "cf_agent_use_chat_request",
        id,
        init: { method: "POST", body: JSON.stringify({ messages }) },
      });
      await socket.waitFor(
        (d) => d?.type === "cf_agent_use_chat_response" && d.id === id && d.done,
        60_000,
        from,
      );
      return socket.frames.slice(from);
    };
    await turn("warmup", 20);
    const frames = await turn("measure", 500);
    const delays = [];
    for (const frame of frames) {
      if (frame.data?.type !== "cf_agent_use_chat_response" || !frame.data.body) continue;
      const chunk = JSON.parse(frame.data.body);
      const index = chunk.type === "text-delta" ? chunk.delta.match(/^<(\d+)>$/)?.[1] : undefined;
      if (index !== undefined) delays.push(frame.at - model.emitTimes[Number(index)]);
    }
    await socket.close();
    if (delays.length !== 500) throw new Error(`expected 500 timed chunks, got ${delays.length}`);
    const p50 = percentile(delays, 50);
    return {
      row: {
        measure: "chat streaming overhead: model chunk written -> client received (500-chunk answer)",
        "p50 ms": p50,
        "p99 ms": percentile(delays, 99),
        samples: delays.length,
      },
      note: `Chat overhead target p50 < 5 ms: ${p50 < 5 ? "met" : "NOT met"} (${p50.toFixed(2)} ms).`,
    };
  } finally {
    await worker.stop();
    await model.close();
  }
}

export async function run({ service, round, startWranglerDev }) {
  const rows = await counterRows(service, round);
  const chat = await chatRows(startWranglerDev);
  const fix = (row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" ? round(v, 2) : v]));
  return {
    title: "Agents: counter RPC, fan-out and chat streaming (wrangler dev --local, loopback)",
    rows: [...rows, chat.row].map(fix),
    notes: [
      "Each client sends its next increment() when the previous reply arrives; msgs/s counts RPC replies; frames out/s adds the state broadcast each call sends to all 50 clients.",
      "Chat: a scripted OpenAI-compatible server (test/fakes/openai-compatible.ts) writes a numbered chunk every 2 ms; the delay is measured in one process on one clock.",
      chat.note,
    ],
  };
}
