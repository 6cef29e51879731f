import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectData } from "../helpers/http";
import { connectWS, freshName } from "../helpers/ws";
import { TodoPageSchema } from "../../src/todos/todos.schemas";

describe("chat tools in public mode (AGENTS_REQUIRE_AUTH=false, the default)", () => {
  it("offers the model no tools in a public chat, and writes nothing", async () => {
    const user = await signUp();
    const socket = await connectWS(`/agents/chat-agent/${freshName()}`);
    const text = '[script:tool:createTodo {"title":"Sneaky"}]';
    socket.send({
      type: "cf_agent_use_chat_request",
      id: "p1",
      init: {
        method: "POST",
        body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }] }),
      },
    });
    await socket.waitFor((d) => d?.type === "cf_agent_use_chat_response" && d.id === "p1" && d.done);
    const calls = await (env.AI as unknown as { calls(): Promise<{ inputs: any }[]> }).calls();
    expect(calls.at(-1)!.inputs.tools).toBeUndefined();
    expect(expectData(await api("/api/todos", { token: user.token }), 200, TodoPageSchema).total).toBe(0);
    socket.close();
  });
});
