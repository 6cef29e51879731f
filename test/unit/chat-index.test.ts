import { describe, expect, it } from "vitest";
import type { UIMessage } from "ai";
import { agentAccess } from "../../src/agents/agent-access";
import { isPrivateInstance } from "../../src/agents/agent-paths";
import { decodeChatCursor, encodeChatCursor } from "../../src/chats/chat-cursor";
import { isChatId, newChatId } from "../../src/chats/chat-ids";
import { summarize } from "../../src/chats/chat-summary";
import { cutOff } from "../../src/chats/chat-text";
import { cleanTitle, fallbackTitle } from "../../src/chats/chat-titles";

const AT = "2026-11-20T10:00:00.000Z";

describe("chat ids", () => {
  it("M3: are minted at random in their own shape, which no name a client chose before has", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newChatId(7)));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isChatId(id)).toBe(true);
    for (const name of [
      "chat-0b6c1a52-9f0e-4c5e-9a1e-2b1f0c3d4e5f",
      "user-1",
      "chat_short",
      `chat_${"a".repeat(23)}`,
    ]) {
      expect(isChatId(name), name).toBe(false);
    }
  });

  it("make a chat private whatever AGENTS_REQUIRE_AUTH says, as are user-<id> chats (G22); other names stay as they were", () => {
    const id = newChatId(7);
    expect(isPrivateInstance("chat-agent", id)).toBe(true);
    expect(isPrivateInstance("chat-agent", "user-7")).toBe(true);
    expect(isPrivateInstance("chat-agent", "user-7-notes")).toBe(true);
    expect(isPrivateInstance("chat-agent", "chat-7")).toBe(false);
    expect(isPrivateInstance("counter-agent", id)).toBe(false);
    expect(isPrivateInstance("todo-feed-agent", "user-7")).toBe(true);
  });

  it("open only for the user whose index holds them: anyone else, or no index, is 404", () => {
    const id = newChatId(7);
    expect(agentAccess("chat-agent", id, 7, 7)).toEqual({ ok: true });
    for (const owner of [8, null, undefined]) {
      expect(agentAccess("chat-agent", id, 7, owner)).toEqual({
        ok: false,
        status: 404,
        message: "Chat not found",
      });
    }
    expect(agentAccess("chat-agent", "user-8", 7)).toMatchObject({ ok: false, status: 403 });
  });
});

describe("chat list cursors", () => {
  it("round-trip a position, and refuse anything not made by the encoder", () => {
    const position = { lastActivityAt: AT, id: newChatId(7) };
    expect(decodeChatCursor(encodeChatCursor(position))).toEqual(position);
    for (const cursor of [
      "",
      "!!",
      encodeChatCursor({ lastActivityAt: "2026-11-20", id: "x" }),
      encodeChatCursor({ lastActivityAt: AT, id: "a b" }),
      encodeChatCursor({ lastActivityAt: AT, id: "x".repeat(65) }),
      `${encodeChatCursor(position)}A`,
      btoa(`${AT} x`),
    ]) {
      expect(decodeChatCursor(cursor), cursor).toBeNull();
    }
  });
});

const message = (role: "user" | "assistant", text: string, id = crypto.randomUUID()): UIMessage => ({
  id,
  role,
  parts: [{ type: "text", text }],
});

describe("chat summaries and titles", () => {
  it("summarize the count, the latest text (cut) and the time of the change", () => {
    const long = "word ".repeat(60);
    expect(summarize([message("user", "Hi"), message("assistant", long)], AT)).toEqual({
      messageCount: 2,
      preview: cutOff(long, 120),
      lastMessageAt: AT,
      lastActivityAt: AT,
    });
    const toolOnly: UIMessage = { id: "t", role: "assistant", parts: [{ type: "step-start" }] };
    expect(summarize([message("user", "  Hi\n there "), toolOnly], AT).preview).toBe("Hi there");
    expect(summarize([], AT)).toEqual({
      messageCount: 0,
      preview: null,
      lastMessageAt: null,
      lastActivityAt: AT,
    });
  });

  it("cut text at a word, never inside a character", () => {
    expect(cutOff("short", 10)).toBe("short");
    expect(cutOff("one two three four five", 12)).toBe("one two…");
    expect(cutOff("😀".repeat(10), 4)).toBe("😀😀😀…");
    expect(Array.from(cutOff("x".repeat(500), 120))).toHaveLength(120);
  });

  it("take the model's first line as the title, without labels, quotes, reasoning or a final period", () => {
    expect(cleanTitle('"Trip to Lisbon."')).toBe("Trip to Lisbon");
    expect(cleanTitle("Title: **Budget review**\nMore text")).toBe("Budget review");
    expect(cleanTitle("<think>hmm, a title</think>\n\n Weekly groceries ")).toBe("Weekly groceries");
    expect(cleanTitle("<think>never closed")).toBeNull();
    expect(cleanTitle('  ""  ')).toBeNull();
    expect(Array.from(cleanTitle("a".repeat(300))!)).toHaveLength(80);
  });

  it("fall back to a short cut of the first message", () => {
    expect(fallbackTitle("How do I renew my passport before the trip in June next year?")).toBe(
      "How do I renew my passport before the trip in…",
    );
    expect(fallbackTitle("   ")).toBe("New chat");
  });
});
