// A user's own chat (`user-<id>`) driven by the scripted model (test/fakes/workers-ai.ts): turns, tool
// approvals and the tool parts of the transcript.
import type { UIMessage } from "ai";
import { expect } from "vitest";
import type { SignedUpUser } from "./auth";
import { api } from "./http";
import { connectWS, type TestSocket } from "./ws";

export type ToolPart = {
  type: string;
  state: string;
  toolCallId: string;
  input?: any;
  output?: any;
  approval?: any;
  errorText?: string;
};

export const chatPath = (user: SignedUpUser, suffix = "") =>
  `/agents/chat-agent/user-${user.userId}${suffix}`;
export const isDone = (id: string) => (d: any) =>
  d?.type === "cf_agent_use_chat_response" && d.id === id && d.done;

export function open(user: SignedUpUser, suffix = "") {
  return connectWS(`${chatPath(user, suffix)}?token=${user.token}`);
}

export function ask(socket: TestSocket, id: string, text: string, history: UIMessage[] = []) {
  const messages = [...history, { id: `u-${id}`, role: "user", parts: [{ type: "text", text }] }];
  socket.send({
    type: "cf_agent_use_chat_request",
    id,
    init: { method: "POST", body: JSON.stringify({ messages, trigger: "submit-message" }) },
  });
  return socket.waitFor(isDone(id), { timeoutMs: 10_000 });
}

export async function transcript(user: SignedUpUser, suffix = ""): Promise<UIMessage[]> {
  const res = await api<UIMessage[]>(`${chatPath(user, suffix)}/get-messages`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body;
}

export async function toolPart(user: SignedUpUser, name: string): Promise<ToolPart | undefined> {
  const parts = (await transcript(user)).flatMap((m) => m.parts) as unknown as ToolPart[];
  return parts.findLast((p) => p.type === `tool-${name}`);
}

export const approve = (socket: TestSocket, toolCallId: string, approved: boolean) =>
  socket.send({ type: "cf_agent_tool_approval", toolCallId, approved, autoContinue: true });
