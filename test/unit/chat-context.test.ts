import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { fitContext } from "../../src/agents/chat-context";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const assistant = (text: string, reasoning?: string): ModelMessage => ({
  role: "assistant",
  content: [...(reasoning ? [{ type: "reasoning" as const, text: reasoning }] : []), { type: "text", text }],
});

describe("fitContext", () => {
  it("keeps a short chat whole", () => {
    const chat = [user("hi"), assistant("hello"), user("how are you?")];
    expect(fitContext(chat)).toEqual(chat);
  });

  it("keeps only the most recent messages that fit the budget, starting on a user turn", () => {
    const chat = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0 ? user(`q${i} ${"x".repeat(100)}`) : assistant(`a${i} ${"y".repeat(100)}`),
    );
    chat.push(user("last question"));
    const fitted = fitContext(chat, 1_000);
    expect(fitted.at(-1)).toEqual(user("last question"));
    expect(fitted[0]!.role).toBe("user");
    expect(fitted.length).toBeLessThan(chat.length);
    expect(JSON.stringify(fitted.map((m) => m.content)).length).toBeLessThanOrEqual(1_000 + 200);
  });

  it("always keeps the latest message, even when it alone exceeds the budget", () => {
    const huge = user("z".repeat(5_000));
    expect(fitContext([user("old"), assistant("older answer"), huge], 100)).toEqual([huge]);
  });

  it("drops reasoning from earlier assistant turns", () => {
    const chat = [user("q1"), assistant("a1", "secret thoughts"), user("q2")];
    expect(JSON.stringify(fitContext(chat))).not.toContain("secret thoughts");
  });
});
