// CHAT_MODELS: the next model answers when one fails before its first token; never after it.
import { describe, expect, it } from "vitest";
import { NORMAL_REASONING, NORMAL_TEXT } from "../fakes/workers-ai";
import { signUp } from "../helpers/auth";
import { chunks, joined, modelCalls, sendTurn, turnOutcome } from "../helpers/agents";
import { createChat, openChat } from "../helpers/chats";
import { assistantMessages, CHAT_MODELS, usageRows } from "../helpers/usage";

const [FIRST, SECOND] = CHAT_MODELS as [string, string];
const ANSWER = NORMAL_REASONING.length + NORMAL_TEXT.length;

/** One turn in a fresh chat of a fresh user: its frames' text, error, stored answer and booked calls. */
async function turnIn(text: string) {
  const user = await signUp();
  const chat = await createChat(user);
  const socket = await openChat(user, chat.id);
  const marker = `m-${crypto.randomUUID()}`;
  sendTurn(socket, "t1", `${text} ${marker}`);
  const { error } = await turnOutcome(socket, "t1");
  const parts = chunks(socket.frames, "t1");
  socket.close();
  const calls = (await modelCalls()).filter(
    (c) => c.inputs.stream && JSON.stringify(c.inputs).includes(marker),
  );
  const errors = socket.frames.filter((f) => f.data?.id === "t1" && f.data.error);
  return {
    userId: user.userId,
    error,
    errors: errors.length,
    text: joined(parts, "text-delta"),
    answers: await assistantMessages(chat.id, user.token),
    rows: (await usageRows(user.userId)).filter((r) => r.kind === "chat"),
    models: calls.map((c) => c.model),
  };
}

describe("B6, CHAT_MODELS: a second model when the first fails", () => {
  it("the first model refuses the call: the second answers, and the answer names it", async () => {
    const turn = await turnIn(`[script:refuse:${FIRST}] Hello`);
    expect(turn.error).toBeUndefined();
    expect(turn.models).toEqual([FIRST, SECOND]);
    expect(turn.text).toBe(NORMAL_TEXT.join(""));
    expect(turn.answers).toHaveLength(1);
    expect(turn.answers[0]!.metadata).toMatchObject({ model: SECOND, usage: { outputTokens: ANSWER } });
    expect(turn.rows).toEqual([
      expect.objectContaining({ model: SECOND, outputTokens: ANSWER, estimated: 0 }),
    ]);
  });

  it("the first model's stream breaks before its first token: the second answers", async () => {
    const turn = await turnIn(`[script:break:${FIRST}] Hello`);
    expect(turn.error).toBeUndefined();
    expect(turn.models).toEqual([FIRST, SECOND]);
    expect(turn.text).toBe(NORMAL_TEXT.join(""));
    expect(turn.answers[0]!.metadata).toMatchObject({ model: SECOND });
    expect(turn.rows.map((r) => r.model)).toEqual([SECOND]);
  });

  it("a failure after the first token is not switched: one error frame, the partial text once, no second model", async () => {
    const turn = await turnIn("[script:fail-midway]");
    expect(turn.error).toBe("The model failed to answer. Try again.");
    expect(turn.errors).toBe(1);
    expect(turn.models).toEqual([FIRST]);
    expect(turn.text).toBe("Partial answer ");
    // What streamed is booked on the model that streamed it: "Thinking. Partial answer " is 25 characters.
    await expect
      .poll(async () => (await usageRows(turn.userId)).filter((r) => r.kind === "chat"))
      .toEqual([expect.objectContaining({ model: FIRST, outputTokens: 7, estimated: 1 })]);
  });

  it("every model fails: one error, no answer, nothing booked", async () => {
    const turn = await turnIn("[script:refuse:*] Hello");
    expect(turn.error).toBe("The model failed to answer. Try again.");
    expect(turn.errors).toBe(1);
    expect(turn.models).toEqual([FIRST, SECOND]);
    expect(turn.text).toBe("");
    expect(turn.answers.flatMap((m) => m.parts.filter((p) => p.type === "text"))).toEqual([]);
    expect(turn.rows).toEqual([]);
  });
});
