import { describe, expect, it } from "vitest";
import { agentAccess } from "../../src/agents/agent-access";
import { parseAgentPath } from "../../src/agents/agent-paths";
import { isInternalHeader } from "../../src/agents/agent-request";
import { ownerIdFromChatName } from "../../src/auth/chat-names";

describe("ownerIdFromChatName", () => {
  it.each([
    ["user-1", 1],
    ["user-42-work", 42],
    ["user-42-a_b-C-9", 42],
    ["user-9007199254740991", 9_007_199_254_740_991],
  ])("reads %s as owner %d", (name, id) => expect(ownerIdFromChatName(name)).toBe(id));

  it.each([
    "user-",
    "user-0",
    "user-01",
    "user-1-",
    "USER-1",
    "user-1.x",
    "xuser-1",
    "user-1 x",
    "user-99999999999999999",
    "lobby",
  ])("finds no owner in %s", (name) => expect(ownerIdFromChatName(name)).toBeNull());
});

describe("agentAccess", () => {
  it("lets any user into a counter, and only the owner into a chat", () => {
    expect(agentAccess("counter-agent", "anything", 7).ok).toBe(true);
    expect(agentAccess("chat-agent", "user-7", 7).ok).toBe(true);
    expect(agentAccess("chat-agent", "user-7-notes", 7).ok).toBe(true);
    expect(agentAccess("chat-agent", "user-70", 7).ok).toBe(false);
    expect(agentAccess("chat-agent", "user-8", 7).ok).toBe(false);
    expect(agentAccess("chat-agent", "room", 7).ok).toBe(false);
  });
});

describe("parseAgentPath", () => {
  it("accepts the instance path and the chat's get-messages only", () => {
    expect(parseAgentPath("/agents/counter-agent/x")).toEqual({
      agent: "counter-agent",
      name: "x",
      subPath: undefined,
    });
    expect(parseAgentPath("/agents/chat-agent/x/get-messages")).toEqual({
      agent: "chat-agent",
      name: "x",
      subPath: "get-messages",
    });
  });

  it.each([
    "/agents/counter-agent/x/get-messages",
    "/agents/counter-agent/x/sub/chat-agent/y",
    "/agents/chat-agent/x/get-messages/y",
    "/agents/chat-agent/x/",
    "/agents/chat-agent//x",
    "/agents/chat-agent",
    "/agents/nope/x",
    "/agents/CounterAgent/x",
    "/agents/__proto__/x",
    "//agents/counter-agent/x",
  ])("rejects %s", (path) => expect(parseAgentPath(path)).toBeNull());
});

describe("isInternalHeader", () => {
  it.each([
    "x-agents-lifecycle-props",
    "X-Agents-Anything",
    "x-cf-agents-subagent-url",
    "x-partykit-room",
    "x-agent-caller",
    "x-agent-credential",
    "x-cf-harness-token",
    "x-channels-identity",
  ])("treats %s as internal", (name) => expect(isInternalHeader(name)).toBe(true));

  it.each(["authorization", "content-type", "cf-connecting-ip", "x-request-id"])("lets %s through", (name) =>
    expect(isInternalHeader(name)).toBe(false),
  );
});
