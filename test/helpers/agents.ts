import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import app from "../../src/app";
import { api, BASE } from "./http";
import { acceptSocket, type Frame, type TestSocket } from "./ws";
import { freshIp } from "./client-ip";

/** The agents gate switched on for one request (the Worker's env; agents keep their own). */
export const AUTH_ON = { AGENTS_REQUIRE_AUTH: "true" } as Partial<Env>;

/** One request through the app with some env values replaced. */
export async function fetchWith(overrides: Partial<Env>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(new URL(path, BASE), init), { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** A WebSocket upgrade through the app with some env values replaced, from a fresh client IP. */
export function upgradeWith(overrides: Partial<Env>, path: string, headers: Record<string, string> = {}) {
  return fetchWith(overrides, path, {
    headers: { Upgrade: "websocket", "CF-Connecting-IP": freshIp(), ...headers },
  });
}

/** An open socket with the gate on; throws with the status when refused. */
export async function connectAuthed(path: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  return acceptSocket(await upgradeWith(AUTH_ON, path, headers));
}

/** POST /api/agents/tickets as `token`'s user. */
export function requestTicket(token: string, agent: string, name: string) {
  return api<{ success: true; data: { ticket: string; expiresAt: string } }>("/api/agents/tickets", {
    method: "POST",
    token,
    json: { agent, name },
  });
}

export const chatPath = (name: string) => `/agents/chat-agent/${name}`;
export const counterPath = (name: string) => `/agents/counter-agent/${name}`;

/**
 * Sends one chat turn the way useAgentChat does: the full message list in a use-chat request frame.
 * The new message is `text`, or these parts (text and file parts).
 */
export function sendTurn(socket: TestSocket, id: string, text: string | unknown[], history: unknown[] = []) {
  const parts = typeof text === "string" ? [{ type: "text", text }] : text;
  const messages = [...history, { id: `m-${id}`, role: "user", parts }];
  socket.send({
    type: "cf_agent_use_chat_request",
    id,
    init: { method: "POST", body: JSON.stringify({ messages, trigger: "submit-message" }) },
  });
}

/** Waits for the end of one turn and returns its error text, if it ended in one. */
export async function turnOutcome(socket: TestSocket, id: string, timeoutMs = 5_000) {
  const isResponse = (d: any) => d?.type === "cf_agent_use_chat_response" && d.id === id;
  await socket.waitFor((d) => isResponse(d) && d.done, { timeoutMs });
  const error = socket.frames.find((f) => isResponse(f.data) && f.data.error);
  return { error: error?.data.body as string | undefined };
}

/** The scripted model's last 50 calls (shared by every test file: match calls by a unique marker). */
export async function modelCalls(): Promise<{ model: string; inputs: any }[]> {
  return (env.AI as unknown as { calls(): Promise<{ model: string; inputs: any }[]> }).calls();
}

/** Whether any recent model call carried `marker` in its messages. */
export async function modelSaw(marker: string): Promise<boolean> {
  return (await modelCalls()).some((call) => JSON.stringify(call.inputs).includes(marker));
}

const isResponse = (id: string) => (d: any) => d?.type === "cf_agent_use_chat_response" && d.id === id;

/** The UI message chunks (parsed bodies) of one request, in order. */
export function chunks(frames: Frame[], id: string): any[] {
  return frames
    .filter((f) => isResponse(id)(f.data) && f.data.body && !f.data.error)
    .map((f) => JSON.parse(f.data.body));
}

/** The text (or reasoning) those chunks streamed. */
export function joined(parts: any[], type: "text-delta" | "reasoning-delta"): string {
  return parts
    .filter((c) => c.type === type)
    .map((c) => c.delta)
    .join("");
}

/** A chat message's file part, as the AI SDK's clients send it. */
export const filePart = (url: string, filename?: string, mediaType = "text/plain") => ({
  type: "file",
  mediaType,
  url,
  ...(filename ? { filename } : {}),
});

/**
 * One turn of a text carrying a unique marker, then `parts`: its error (if any), whether the model was
 * asked, and what it received (the inputs of its latest call with the marker, as JSON).
 */
export async function markedTurn(socket: TestSocket, id: string, parts: unknown[], history: unknown[] = []) {
  const marker = `ask-${crypto.randomUUID()}`;
  sendTurn(socket, id, [{ type: "text", text: `About this: ${marker}` }, ...parts], history);
  const { error } = await turnOutcome(socket, id);
  const calls = (await modelCalls()).filter((call) => JSON.stringify(call.inputs).includes(marker));
  return { error, asked: calls.length > 0, input: JSON.stringify(calls.at(-1)?.inputs ?? null), calls };
}
