import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { getAgentByName } from "agents";
import { describe, expect, it } from "vitest";
import { api, expectError } from "../helpers/http";
import { connectWS, freshName, rpc, type TestSocket } from "../helpers/ws";

const path = (name: string) => `/agents/counter-agent/${name}`;
const isState = (data: any) => data?.type === "cf_agent_state";
const lastState = (socket: TestSocket) => socket.frames.filter((f) => isState(f.data)).at(-1)?.data.state;

async function countOverHttp(name: string): Promise<number> {
  const res = await api<{ count: number }>(path(name));
  expect(res.status).toBe(200);
  return res.body.count;
}

describe("CounterAgent over HTTP", () => {
  it("answers GET with { count: 0, url } for a new name", async () => {
    const name = freshName();
    const res = await api(path(name));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ count: 0, url: `http://service.test${path(name)}` });
  });

  it("keeps the query string in url, as the request had it", async () => {
    const name = freshName();
    const res = await api<{ count: number; url: string }>(`${path(name)}?x=1`);
    expect(res.body.url).toBe(`http://service.test${path(name)}?x=1`);
  });

  it("answers 405 for POST and 404 for a sub-path, in the envelope", async () => {
    const name = freshName();
    const post = await api(path(name), { method: "POST", json: { count: 5 } });
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ success: false, error: { message: "Method not allowed" } });
    const sub = await api(`${path(name)}/extra`);
    expect(sub.status).toBe(404);
    expectError(sub, 404);
    expect(await countOverHttp(name)).toBe(0);
  });
});

describe("CounterAgent RPC over WebSocket", () => {
  it("sends identity and state on connect, and increment()/decrement() return the new count", async () => {
    const name = freshName();
    const socket = await connectWS(path(name));
    const initial = await socket.waitFor(isState);
    expect(initial.data.state).toEqual({ count: 0 });

    expect(await rpc(socket, "increment")).toMatchObject({ success: true, result: 1 });
    expect(await rpc(socket, "increment")).toMatchObject({ success: true, result: 2 });
    expect(await rpc(socket, "decrement")).toMatchObject({ success: true, result: 1 });
    expect(await countOverHttp(name)).toBe(1);
    socket.close();
  });

  it("notifies every connected client of each change", async () => {
    const name = freshName();
    const [a, b] = await Promise.all([connectWS(path(name)), connectWS(path(name))]);
    await Promise.all([a.waitFor(isState), b.waitFor(isState)]);
    await rpc(a, "increment");
    await b.waitFor((d) => isState(d) && d.state.count === 1);
    await rpc(b, "decrement");
    await a.waitFor((d) => isState(d) && d.state.count === 0);
    a.close();
    b.close();
  });

  it("keeps names independent", async () => {
    const [x, y] = [freshName(), freshName()];
    const socket = await connectWS(path(x));
    await rpc(socket, "increment");
    expect(await countOverHttp(x)).toBe(1);
    expect(await countOverHttp(y)).toBe(0);
    socket.close();
  });

  it("reaches the same state over HTTP, WebSocket RPC and Durable Object RPC", async () => {
    const name = freshName();
    const stub = await getAgentByName(env.CounterAgent, name);
    expect(await stub.increment()).toBe(1);
    const socket = await connectWS(path(name));
    expect((await socket.waitFor(isState)).data.state).toEqual({ count: 1 });
    expect(await rpc(socket, "increment")).toMatchObject({ result: 2 });
    expect(await stub.decrement()).toBe(1);
    await socket.waitFor((d) => isState(d) && d.state.count === 1, { from: 2 });
    expect(await countOverHttp(name)).toBe(1);
    socket.close();
  });
});

describe("another Worker over a Durable Object binding (test/workers/rpc-consumer.ts)", () => {
  it("calls increment() and decrement() on the stub and sees the count the agent serves", async () => {
    const name = freshName();
    const call = async (op: string) =>
      (await env.RPC_CONSUMER.fetch(`http://consumer/${op}?name=${name}`)).json();
    expect(await call("increment")).toEqual({ count: 1 });
    expect(await call("increment")).toEqual({ count: 2 });
    expect(await call("decrement")).toEqual({ count: 1 });
    expect(await countOverHttp(name)).toBe(1);
  });

  it("calls healthCheck() on ChatAgent and gets 200 OK", async () => {
    const res = await env.RPC_CONSUMER.fetch(`http://consumer/chat-health?name=${freshName()}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("OK");
  });
});

describe("G3: clients cannot push state", () => {
  it.each([[{ count: 999999 }], [{ count: "x" }], [null]])(
    "rejects cf_agent_state %j and keeps the count",
    async (state) => {
      const name = freshName();
      const socket = await connectWS(path(name));
      await socket.waitFor(isState);
      await rpc(socket, "increment");
      socket.send({ type: "cf_agent_state", state });
      const error = await socket.waitFor((d) => d?.type === "cf_agent_state_error");
      expect(JSON.stringify(error.data)).not.toMatch(/at \w+ \(|\.ts:\d+/);
      expect(await countOverHttp(name)).toBe(1);
      expect(lastState(socket)).toEqual({ count: 1 });
      socket.close();
    },
  );
});

describe("G4: bad RPC calls", () => {
  it("answers an unknown method, a non-callable method and wrong arguments with an error frame, then keeps serving", async () => {
    const name = freshName();
    const socket = await connectWS(path(name));
    const cases: [string, unknown[]][] = [
      ["nope", []],
      ["onRequest", []],
      ["setState", [{ count: 5 }]],
      ["increment", ["x"]],
      ["decrement", [1, 2]],
    ];
    for (const [method, args] of cases) {
      const reply = await rpc(socket, method, args);
      expect(reply.success, method).toBe(false);
      expect(typeof reply.error).toBe("string");
      expect(reply.error).not.toMatch(/at \w+ \(|\.ts:\d+|stack/i);
    }
    expect(await countOverHttp(name)).toBe(0);
    expect(await rpc(socket, "increment")).toMatchObject({ success: true, result: 1 });
    socket.close();
  });

  it("ignores malformed frames and keeps serving", async () => {
    const name = freshName();
    const socket = await connectWS(path(name));
    socket.send("{not json");
    socket.send(JSON.stringify({ type: "rpc" }));
    // Not an RPC request in the SDK's eyes (args is not an array): ignored, nothing runs.
    socket.send({ type: "rpc", id: "bad-args", method: "increment", args: "not-an-array" });
    expect(await rpc(socket, "increment")).toMatchObject({ success: true, result: 1 });
    expect(socket.frames.some((f) => f.data?.id === "bad-args")).toBe(false);
    expect(await countOverHttp(name)).toBe(1);
    socket.close();
  });
});

describe("G7: concurrency", () => {
  it("50 WebSocket clients x 20 concurrent increments end at exactly 1000, and every client's last notification says 1000", async () => {
    const name = freshName();
    const sockets = await Promise.all(Array.from({ length: 50 }, () => connectWS(path(name))));
    await Promise.all(sockets.map((s) => s.waitFor(isState)));
    const results = await Promise.all(
      sockets.flatMap((socket) => Array.from({ length: 20 }, () => rpc(socket, "increment"))),
    );
    expect(results.every((r) => r.success)).toBe(true);
    // Each increment returned a distinct count: no lost or duplicated update.
    expect(new Set(results.map((r) => r.result)).size).toBe(1000);
    await Promise.all(
      sockets.map((s) => s.waitFor((d) => isState(d) && d.state.count === 1000, { timeoutMs: 10_000 })),
    );
    for (const socket of sockets) expect(lastState(socket)).toEqual({ count: 1000 });
    expect(await countOverHttp(name)).toBe(1000);
    for (const socket of sockets) socket.close();
  }, 120_000);
});

describe("G8: eviction", () => {
  it("keeps the count across evictDurableObject", async () => {
    const name = freshName();
    const stub = await getAgentByName(env.CounterAgent, name);
    for (let i = 0; i < 3; i++) await stub.increment();
    await evictDurableObject(stub);
    expect(await countOverHttp(name)).toBe(3);
    expect(await (await getAgentByName(env.CounterAgent, name)).increment()).toBe(4);
  });

  it("closes sockets on eviction with webSockets: close; reconnecting clients resync to the stored count", async () => {
    const name = freshName();
    const sockets = await Promise.all([connectWS(path(name)), connectWS(path(name))]);
    await Promise.all(sockets.map((s) => s.waitFor(isState)));
    await rpc(sockets[0]!, "increment");
    await rpc(sockets[1]!, "increment");
    await evictDurableObject(env.CounterAgent.getByName(name), { webSockets: "close" });
    await Promise.all(sockets.map((s) => s.closed));

    const again = await connectWS(path(name));
    expect((await again.waitFor(isState)).data.state).toEqual({ count: 2 });
    expect(await rpc(again, "increment")).toMatchObject({ result: 3 });
    again.close();
  });
});
