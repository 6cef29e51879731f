import { AgentClient } from "agents/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { ANSWER, REASONING, startScriptedServer, type ScriptedServer } from "../fakes/openai-compatible";
import { openSocket } from "./ws-client";

let model: ScriptedServer;
let worker: WranglerDev;
const AI_VARS = () => ({ AI_BASE_URL: model.baseURL, AI_MODEL: "scripted-model" });
const fresh = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;
const wsUrl = (path: string) => `${worker.url.replace("http", "ws")}${path}`;

async function count(name: string): Promise<number> {
  const res = await fetch(`${worker.url}/agents/counter-agent/${name}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { count: number }).count;
}

beforeAll(async () => {
  model = await startScriptedServer();
  worker = await startWranglerDev({ vars: AI_VARS() });
});
afterAll(async () => {
  await worker?.stop();
  await model?.close();
});

describe("CounterAgent with real clients against wrangler dev", () => {
  it("AgentClient (agents/client) calls increment() and decrement() and receives state updates", async () => {
    const name = fresh("client");
    const states: number[] = [];
    const client = new AgentClient<unknown, { count: number }>({
      agent: "counter-agent",
      name,
      host: new URL(worker.url).host,
      protocol: "ws",
      onStateUpdate: (state) => states.push(state.count),
    });
    try {
      await client.ready;
      expect(await client.call("increment")).toBe(1);
      expect(await client.call("increment")).toBe(2);
      expect(await client.call("decrement")).toBe(1);
      await expect.poll(() => states.at(-1)).toBe(1);
      expect(await count(name)).toBe(1);
      await expect(client.call("setState", [{ count: 9 }])).rejects.toThrow(/not callable/);
    } finally {
      client.close();
    }
  });

  it("raw WebSockets: RPC frames, broadcast to every client, state shared with HTTP", async () => {
    const name = fresh("raw");
    const [a, b] = await Promise.all([
      openSocket(wsUrl(`/agents/counter-agent/${name}`)),
      openSocket(wsUrl(`/agents/counter-agent/${name}`)),
    ]);
    expect(await a.rpc("increment")).toMatchObject({ success: true, result: 1 });
    await b.waitFor((d) => d?.type === "cf_agent_state" && d.state.count === 1);
    a.send({ type: "cf_agent_state", state: { count: 999 } });
    await a.waitFor((d) => d?.type === "cf_agent_state_error");
    expect(await count(name)).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it("CORS and the chat routes over real HTTP: OPTIONS 204, chat GET 404, chat upgrade 101", async () => {
    const preflight = await fetch(`${worker.url}/agents/counter-agent/x`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toBe("GET, POST, OPTIONS");
    expect((await fetch(`${worker.url}/agents/chat-agent/${fresh("c")}`)).status).toBe(404);
    const socket = await openSocket(wsUrl(`/agents/chat-agent/${fresh("c")}`));
    await socket.close();
  });
});

describe("AI through an OpenAI-compatible endpoint (AI_BASE_URL)", () => {
  it("GET /ai/health runs one inference there with max_tokens 20", async () => {
    const res = await fetch(`${worker.url}/ai/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      data: { provider: "openai-compatible", model: "scripted-model", result: { response: "AI_OK" } },
    });
    const call = model.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!;
    expect(call.body.max_tokens).toBe(20);
    expect(JSON.stringify(call.body.messages)).toContain("AI_OK");
  });

  it("a chat turn streams reasoning and text to the client and stores the answer", async () => {
    const name = fresh("chat");
    const socket = await openSocket(wsUrl(`/agents/chat-agent/${name}`));
    const messages = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Say hello" }] }];
    socket.send({
      type: "cf_agent_use_chat_request",
      id: "r1",
      init: { method: "POST", body: JSON.stringify({ messages }) },
    });
    const done = await socket.waitFor(
      (d) => d?.type === "cf_agent_use_chat_response" && d.id === "r1" && d.done,
      20_000,
    );
    expect(done.data.error).toBeUndefined();
    const chunks = socket.frames
      .filter((f) => f.data?.type === "cf_agent_use_chat_response" && f.data.body)
      .map((f) => JSON.parse(f.data.body));
    const text = (type: string) =>
      chunks
        .filter((c) => c.type === type)
        .map((c) => c.delta)
        .join("");
    expect(text("reasoning-delta")).toBe(REASONING.join(""));
    expect(text("text-delta")).toBe(ANSWER.join(""));
    await socket.close();

    const stored = (await (
      await fetch(`${worker.url}/agents/chat-agent/${name}/get-messages`)
    ).json()) as any[];
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(stored[1].parts.find((p: any) => p.type === "text").text).toBe(ANSWER.join(""));
  });
});

describe("durability", () => {
  it("keeps the count across kill -9 and a restart of wrangler dev on the same --persist-to directory", async () => {
    const name = fresh("durable");
    const socket = await openSocket(wsUrl(`/agents/counter-agent/${name}`));
    for (let i = 0; i < 5; i++) await socket.rpc("increment");
    expect(await count(name)).toBe(5);

    await worker.stop("SIGKILL");
    worker = await startWranglerDev({ persistTo: worker.persistTo, migrate: false, vars: AI_VARS() });
    expect(await count(name)).toBe(5);
    const again = await openSocket(wsUrl(`/agents/counter-agent/${name}`));
    expect(await again.rpc("increment")).toMatchObject({ result: 6 });
    await again.close();
  }, 120_000);
});
