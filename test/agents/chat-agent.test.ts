import { env } from "cloudflare:workers";
import { getAgentByName } from "agents";
import { describe, expect, it } from "vitest";
import { NORMAL_REASONING, NORMAL_TEXT } from "../fakes/workers-ai";
import { api, request } from "../helpers/http";
import { chunks, joined } from "../helpers/agents";
import { connectWS, freshName, type TestSocket } from "../helpers/ws";
import type { UIMessage } from "ai";

const chatPath = (name: string) => `/agents/chat-agent/${name}`;
const isResponse = (id: string) => (d: any) => d?.type === "cf_agent_use_chat_response" && d.id === id;
const isDone = (id: string) => (d: any) => isResponse(id)(d) && d.done;

function userMessage(id: string, text: string) {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

/** Sends one chat turn the way useAgentChat does: the full message list in a use-chat request frame. */
function sendTurn(socket: TestSocket, id: string, messages: unknown[]) {
  socket.send({
    type: "cf_agent_use_chat_request",
    id,
    init: { method: "POST", body: JSON.stringify({ messages, trigger: "submit-message" }) },
  });
}

async function transcript(name: string): Promise<UIMessage[]> {
  const res = await api<UIMessage[]>(`${chatPath(name)}/get-messages`);
  expect(res.status).toBe(200);
  return res.body;
}

async function lastModelCall() {
  const calls = await (env.AI as unknown as { calls(): Promise<{ model: string; inputs: any }[]> }).calls();
  return calls.at(-1)!;
}

describe("ChatAgent: a full turn over WebSocket", () => {
  it("streams reasoning and text chunks before the answer ends, and stores the assistant message", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    sendTurn(socket, "r1", [userMessage("u1", "Say hello")]);
    const done = await socket.waitFor(isDone("r1"));
    expect(done.data.error).toBeUndefined();

    const parts = chunks(socket.frames, "r1");
    expect(joined(parts, "reasoning-delta")).toBe(NORMAL_REASONING.join(""));
    expect(joined(parts, "text-delta")).toBe(NORMAL_TEXT.join(""));
    // Streamed, not buffered: the first delta reached the client well before the turn finished.
    const firstDelta = socket.frames.find(
      (f) => isResponse("r1")(f.data) && f.data.body?.includes("-delta"),
    )!;
    expect(done.at - firstDelta.at).toBeGreaterThan(50);

    const stored = await transcript(name);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    const assistant = stored[1]!;
    expect(assistant.parts.find((p) => p.type === "text")?.text).toBe(NORMAL_TEXT.join(""));
    expect(assistant.parts.find((p) => p.type === "reasoning")?.text).toBe(NORMAL_REASONING.join(""));
    socket.close();
  });

  it("sends the chat model the system prompt, the stored messages and a generous max_tokens", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    sendTurn(socket, "r1", [userMessage("u1", "First question")]);
    await socket.waitFor(isDone("r1"));
    const stored = await transcript(name);
    sendTurn(socket, "r2", [...stored, userMessage("u2", "Second question")]);
    await socket.waitFor(isDone("r2"));

    const call = await lastModelCall();
    expect(call.model).toBe(env.CHAT_MODELS.split(",")[0]);
    expect(call.inputs.stream).toBe(true);
    expect(call.inputs.max_tokens).toBe(8192);
    const roles = call.inputs.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "user"]);
    expect(JSON.stringify(call.inputs.messages)).toContain("Second question");
    socket.close();
  });

  it("shows the stored conversation after reconnecting, and the next turn builds on it", async () => {
    const name = freshName();
    const first = await connectWS(chatPath(name));
    sendTurn(first, "r1", [userMessage("u1", "Remember me")]);
    await first.waitFor(isDone("r1"));
    first.close();
    await first.closed;

    // What useAgentChat does on mount: read the stored messages, then continue from them.
    const second = await connectWS(chatPath(name));
    const stored = await transcript(name);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(stored[1]!.parts.some((p) => p.type === "text" && p.text === NORMAL_TEXT.join(""))).toBe(true);
    sendTurn(second, "r2", [...stored, userMessage("u2", "And now?")]);
    await second.waitFor(isDone("r2"));
    expect((await transcript(name)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    second.close();
  });

  it("keeps instances apart", async () => {
    const [a, b] = [freshName(), freshName()];
    const socket = await connectWS(chatPath(a));
    sendTurn(socket, "r1", [userMessage("u1", "Only in a")]);
    await socket.waitFor(isDone("r1"));
    expect(await transcript(a)).toHaveLength(2);
    expect(await transcript(b)).toEqual([]);
    socket.close();
  });
});

describe("ChatAgent: stream resumption", () => {
  it("resumes an answer after a disconnect in the middle and completes it", async () => {
    const name = freshName();
    const first = await connectWS(chatPath(name));
    sendTurn(first, "slow", [userMessage("u1", "[script:slow] Tell me a long story")]);
    await first.waitFor((d) => isResponse("slow")(d) && d.body?.includes("text-delta"), { timeoutMs: 5_000 });
    first.close();
    const seenBeforeDisconnect = chunks(first.frames, "slow").length;

    const second = await connectWS(chatPath(name));
    second.send({ type: "cf_agent_stream_resume_request", probeId: "p1" });
    const resuming = await second.waitFor((d) => d?.type === "cf_agent_stream_resuming");
    expect(resuming.data.id).toBe("slow");
    second.send({ type: "cf_agent_stream_resume_ack", id: "slow" });
    await second.waitFor(isDone("slow"), { timeoutMs: 10_000 });

    const resumed = chunks(second.frames, "slow");
    expect(second.frames.some((f) => isResponse("slow")(f.data) && f.data.replay)).toBe(true);
    expect(resumed.length).toBeGreaterThan(seenBeforeDisconnect);
    const expectedText = Array.from({ length: 35 }, (_, i) => `w${i + 5} `).join("");
    expect(joined(resumed, "text-delta")).toBe(expectedText);

    const stored = await transcript(name);
    expect(stored.at(-1)!.parts.find((p) => p.type === "text")?.text).toBe(expectedText);
    second.close();
  });

  it("answers a resume request with resume_none when nothing is streaming", async () => {
    const socket = await connectWS(chatPath(freshName()));
    socket.send({ type: "cf_agent_stream_resume_request", probeId: "p2" });
    await socket.waitFor((d) => d?.type === "cf_agent_stream_resume_none");
    socket.close();
  });
});

describe("G10: failures", () => {
  it("reports a model failure in the middle as an error frame without internals, keeping the stored history", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    sendTurn(socket, "ok", [userMessage("u1", "Say hello")]);
    await socket.waitFor(isDone("ok"));
    const before = await transcript(name);

    sendTurn(socket, "bad", [...before, userMessage("u2", "[script:fail-midway]")]);
    const error = await socket.waitFor((d) => isResponse("bad")(d) && d.error);
    expect(error.data.body).toBe("The model failed to answer. Try again.");
    const done = await socket.waitFor(isDone("bad"));
    expect(done.data.outcome).toBe("error");
    expect(JSON.stringify(socket.frames.map((f) => f.data))).not.toMatch(
      /InferenceUpstreamError|scripted failure/,
    );

    const after = await transcript(name);
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[2]).toMatchObject({ id: "u2", role: "user" });

    // The instance still answers the next turn.
    sendTurn(socket, "again", [...after, userMessage("u3", "Say hello again")]);
    const next = await socket.waitFor(isDone("again"));
    expect(next.data.error).toBeUndefined();
    expect(joined(chunks(socket.frames, "again"), "text-delta")).toBe(NORMAL_TEXT.join(""));
    socket.close();
  });

  it("closes the connection with 1009 on a frame over 1 MiB, losing no stored message", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    sendTurn(socket, "ok", [userMessage("u1", "Say hello")]);
    await socket.waitFor(isDone("ok"));
    const before = await transcript(name);

    sendTurn(socket, "huge", [...before, userMessage("u2", "x".repeat(2 * 1024 * 1024))]);
    expect(await socket.closed).toBe(1009);
    expect(await transcript(name)).toEqual(before);
  });
});

describe("ChatAgent over HTTP and RPC", () => {
  it("answers plain GET with 404 and serves the transcript at get-messages", async () => {
    const name = freshName();
    expect((await request(chatPath(name))).status).toBe(404);
    expect(await transcript(name)).toEqual([]);
  });

  it("answers healthCheck() over Durable Object RPC with a 200 OK Response", async () => {
    const stub = await getAgentByName(env.ChatAgent, freshName());
    const res = await stub.healthCheck();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("OK");
  });

  it("does not expose healthCheck() or onChatMessage() as WebSocket callables", async () => {
    const socket = await connectWS(chatPath(freshName()));
    for (const method of ["healthCheck", "onChatMessage"]) {
      socket.send({ type: "rpc", id: method, method, args: [] });
      const reply = await socket.waitFor((d) => d?.type === "rpc" && d.id === method);
      expect(reply.data.success).toBe(false);
    }
    socket.close();
  });

  it("bounds stored messages per instance (maxPersistedMessages)", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    const many = Array.from({ length: 260 }, (_, i) => userMessage(`m${i}`, `message ${i}`));
    sendTurn(socket, "many", many);
    await socket.waitFor(isDone("many"), { timeoutMs: 10_000 });
    const stored = await transcript(name);
    expect(stored.length).toBeLessThanOrEqual(200);
    expect(stored.at(-1)!.role).toBe("assistant");
    expect(stored.at(-2)!.id).toBe("m259");
    socket.close();
  });
});
