import { request as httpRequest } from "node:http";
import { AgentClient } from "agents/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { startScriptedServer, type ScriptedServer } from "../fakes/openai-compatible";
import { openSocket } from "./ws-client";
import { fromFreshIp } from "../helpers/client-ip";
import { windowWithRoom } from "../helpers/limiter-window";
import { signUpAt, type RegisteredUser } from "./sign-up";

// The agents' attacks replayed against `wrangler dev --local` with AGENTS_REQUIRE_AUTH=true.
let model: ScriptedServer;
let worker: WranglerDev;
const STACK = /at \S+ \(|\.js:\d+/;
const wsUrl = (path: string) => `${worker.url.replace("http", "ws")}${path}`;

const register = () => signUpAt(worker.url);

async function ticket(user: RegisteredUser, agent: string, name: string): Promise<string> {
  const res = await fetch(`${worker.url}/api/agents/tickets`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${user.token}` },
    body: JSON.stringify({ agent, name }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { ticket: string } }).data.ticket;
}

/** The status a WebSocket upgrade gets (101, or the refusal), with any extra headers. */
function upgradeStatus(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${worker.url}${path}`, {
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": btoa(crypto.randomUUID().slice(0, 16)),
        ...headers,
      },
    });
    req.on("upgrade", (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  model = await startScriptedServer();
  worker = await startWranglerDev({
    vars: { AI_BASE_URL: model.baseURL, AI_MODEL: "scripted-model", AGENTS_REQUIRE_AUTH: "true" },
  });
});
afterAll(async () => {
  await worker?.stop();
  await model?.close();
});

describe("tickets with the SDK's AgentClient", () => {
  it("connects with a ticket from its query function, calls increment(), and never puts the login token in a URL", async () => {
    const user = await register();
    const name = `room-${crypto.randomUUID()}`;
    const client = new AgentClient<unknown, { count: number }>({
      agent: "counter-agent",
      name,
      host: new URL(worker.url).host,
      protocol: "ws",
      query: async () => ({ ticket: await ticket(user, "counter-agent", name) }),
    });
    try {
      await client.ready;
      expect(await client.call("increment")).toBe(1);
      expect(client.url).toContain("ticket=");
      expect(client.url).not.toContain(user.token);
    } finally {
      client.close();
    }
  });

  it("refuses another user's chat: 403 with their token, 401 with a ticket for another chat", async () => {
    const [alice, bob] = await Promise.all([register(), register()]);
    const victim = `/agents/chat-agent/user-${alice.userId}`;
    expect(await upgradeStatus(`${victim}?token=${bob.token}`)).toBe(403);
    const own = await ticket(bob, "chat-agent", `user-${bob.userId}`);
    expect(await upgradeStatus(`${victim}?ticket=${own}`)).toBe(401);
    const read = await fetch(`${worker.url}${victim}/get-messages`, {
      headers: { Authorization: `Bearer ${bob.token}` },
    });
    expect(read.status).toBe(403);
    expect(
      await upgradeStatus(`${victim}?ticket=${await ticket(alice, "chat-agent", `user-${alice.userId}`)}`),
    ).toBe(101);
  });
});

// Room in one limiter window for eleven turns, with margin for a loaded machine.
const ELEVEN_TURNS_MS = 20_000;

/** Ten turns on one socket, then an eleventh: its refusal and whether the model was asked. */
async function pastTheLimit() {
  const user = await register();
  const name = `user-${user.userId}`;
  const socket = await openSocket(
    wsUrl(`/agents/chat-agent/${name}?ticket=${await ticket(user, "chat-agent", name)}`),
  );
  const turn = async (id: string) => {
    const messages = [{ id: `m-${id}`, role: "user", parts: [{ type: "text", text: `turn ${id}` }] }];
    socket.send({
      type: "cf_agent_use_chat_request",
      id,
      init: { method: "POST", body: JSON.stringify({ messages }) },
    });
    await socket.waitFor((d) => d?.type === "cf_agent_use_chat_response" && d.id === id && d.done, 20_000);
    return socket.frames.find((f) => f.data?.id === id && f.data.error)?.data.body as string | undefined;
  };
  for (let i = 0; i < 10; i++) expect(await turn(`ok${i}`)).toBeUndefined();
  const asked = model.requests.length;
  const refusal = await turn("over");
  const modelAsked = model.requests.length > asked;
  await socket.close();
  return { refusal, modelAsked };
}

describe("spend limits over raw WebSockets", () => {
  it("refuses the 11th turn on one socket in the stream, without asking the model", async () => {
    await windowWithRoom(ELEVEN_TURNS_MS);
    const outcome = await pastTheLimit();
    expect(outcome.refusal).toMatch(/Too many messages on this connection/);
    expect(outcome.modelAsked).toBe(false);
  }, 180_000);

  it("/ai/health: a flood from one IP costs one inference, and the 11th request a minute is 429", async () => {
    const before = model.requests.length;
    const headers = fromFreshIp();
    await windowWithRoom(10_000);
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => fetch(`${worker.url}/ai/health`, { headers })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(model.requests.length - before).toBe(1);
  });
});

describe("side doors", () => {
  it("answers /sub/... and unknown sub-paths with 404 in the envelope, over HTTP and WebSocket", async () => {
    const user = await register();
    const auth = { Authorization: `Bearer ${user.token}` };
    for (const path of [
      "/agents/counter-agent/x/sub/chat-agent/y",
      `/agents/counter-agent/x/sub/chat-agent/${encodeURIComponent("é".repeat(256))}`,
      "/agents/chat-agent/x/state",
    ]) {
      const res = await fetch(`${worker.url}${path}`, { headers: auth });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: { message: "Agent not found" } });
      expect(await upgradeStatus(`${path}?token=${user.token}`)).toBe(404);
    }
  });

  it("ignores x-agents-lifecycle-props from outside: no 500, no stack", async () => {
    const user = await register();
    const res = await fetch(`${worker.url}/agents/counter-agent/props-${crypto.randomUUID()}`, {
      headers: { Authorization: `Bearer ${user.token}`, "x-agents-lifecycle-props": "!!!" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toMatch(STACK);
    const room = `props-${crypto.randomUUID()}`;
    expect(
      await upgradeStatus(
        `/agents/counter-agent/${room}?ticket=${await ticket(user, "counter-agent", room)}`,
        {
          "x-agents-lifecycle-props": "!!!",
        },
      ),
    ).toBe(101);
  });
});
