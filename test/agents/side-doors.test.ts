import { listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ChatAgent } from "../../src/agents/chat-agent";
import { chatPath, counterPath } from "../helpers/agents";
import { api, expectError, request } from "../helpers/http";
import { connectWS, freshName } from "../helpers/ws";

async function instanceCount(): Promise<number> {
  const [counters, chats] = await Promise.all([
    listDurableObjectIds(env.CounterAgent),
    listDurableObjectIds(env.ChatAgent),
  ]);
  return counters.length + chats.length;
}

const STACK = /at \S+ \(|\.js:\d+|Error:/;

const parent = () => freshName("p");

describe("G12: only /agents/<agent>/<name> and get-messages reach an agent", () => {
  it.each([
    ["a sub-agent", () => `${counterPath(parent())}/sub/chat-agent/child`],
    [
      "a nested sub-agent",
      () => `${counterPath(parent())}/sub/counter-agent/a/sub/chat-agent/b/sub/chat-agent/c`,
    ],
    [
      "a sub-agent with a 256-character Unicode name",
      () => `${chatPath(parent())}/sub/chat-agent/${encodeURIComponent("ü".repeat(256))}`,
    ],
    ["get-messages on a counter", () => `${counterPath(parent())}/get-messages`],
    ["get-messages with more after it", () => `${chatPath(parent())}/get-messages/x`],
    ["any other sub-path", () => `${counterPath(parent())}/state`],
    ["a trailing slash", () => `${counterPath(parent())}/`],
    ["an empty segment", () => `/agents//counter-agent/${parent()}`],
  ])(
    "answers %s with 404 in the envelope over HTTP and WebSocket, creating no instance",
    async (_label, path) => {
      const before = await instanceCount();
      const target = path();
      expectError(await api(target), 404, "Agent not found");
      expectError(await api(target, { method: "POST" }), 404);
      const upgrade = await request(target, { headers: { Upgrade: "websocket" } });
      expect(upgrade.status).toBe(404);
      expect(upgrade.webSocket).toBeNull();
      expect(await instanceCount()).toBe(before);
    },
  );

  it("refuses a WebSocket on get-messages: sockets open on the instance itself", async () => {
    const res = await request(`${chatPath(freshName())}/get-messages`, { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(404);
  });

  it("still serves the documented routes", async () => {
    const name = freshName();
    expect((await api(counterPath(name))).status).toBe(200);
    expect((await api(`${chatPath(name)}/get-messages`)).body).toEqual([]);
  });
});

describe("G13: SDK-internal headers from outside are stripped", () => {
  it.each(["!!!", "e30=", btoa(JSON.stringify({ admin: true })), "x".repeat(8_000)])(
    "ignores x-agents-lifecycle-props: %s on HTTP and WebSocket, without 500 or stack",
    async (value) => {
      const headers = {
        "x-agents-lifecycle-props": value,
        "x-cf-agents-subagent-url": "http://evil.test/sub/x/y",
      };
      const res = await api(counterPath(freshName()), { headers });
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(STACK);
      const socket = await connectWS(chatPath(freshName()), headers);
      socket.send({ type: "cf_agent_stream_resume_request", probeId: "p" });
      await socket.waitFor((d) => d?.type === "cf_agent_stream_resume_none");
      expect(JSON.stringify(socket.frames.map((f) => f.data))).not.toMatch(STACK);
      socket.close();
    },
  );
});

describe("G15: ChatAgent refuses client state pushes", () => {
  it.each([{ count: 999_999 }, { x: "y".repeat(500_000) }])(
    "rejects cf_agent_state and stores nothing",
    async (state) => {
      const name = freshName();
      const a = await connectWS(chatPath(name));
      const b = await connectWS(chatPath(name));
      const framesOfB = b.frames.length;
      a.send({ type: "cf_agent_state", state });
      const error = await a.waitFor((d) => d?.type === "cf_agent_state_error");
      expect(JSON.stringify(error.data)).not.toMatch(STACK);
      // Nothing was broadcast to the other client. The agent handles one socket message after
      // another, so once b's own push is answered, a broadcast of a's would already be in b's frames.
      b.send({ type: "cf_agent_state", state: {} });
      await b.waitFor((d) => d?.type === "cf_agent_state_error", { from: framesOfB });
      expect(b.frames.slice(framesOfB).some((f) => f.data?.type === "cf_agent_state")).toBe(false);
      a.close();
      b.close();
      const stored = await runInDurableObject(
        env.ChatAgent.getByName(name),
        (agent: ChatAgent) => agent.state,
      );
      expect(JSON.stringify(stored ?? null)).not.toMatch(/999999|yyyy/);
    },
  );
});
