// Runs with AGENTS_REQUIRE_AUTH=true and CHAT_MODEL_IMAGES=true (project "workers-owned"): the chat
// `user-<id>` is its user's, and the model takes images.
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { filePart, markedTurn, sendTurn, turnOutcome } from "../helpers/agents";
import { api } from "../helpers/http";
import { downloadPath, storeFile } from "../helpers/uploads";
import { connectWS } from "../helpers/ws";
import { IMAGE_MAX_BYTES, TEXT_INLINE_BYTES } from "../../src/files/file-content";
import { FILE_REFUSALS } from "../../src/agents/chat-files";

const open = (user: SignedUpUser) => connectWS(`/agents/chat-agent/user-${user.userId}?token=${user.token}`);

async function toolOutput(user: SignedUpUser, name: string) {
  const res = await api<UIMessage[]>(`/agents/chat-agent/user-${user.userId}/get-messages`, {
    token: user.token,
  });
  const parts = res.body.flatMap((m) => m.parts) as {
    type: string;
    state?: string;
    output?: any;
    errorText?: string;
  }[];
  return parts.findLast((p) => p.type === `tool-${name}` && p.state !== "input-available");
}

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 250, 251]);

describe("files in the owner's chat user-<id>, with a model that takes images", () => {
  it("I6: sends the owner's image as an image part; an image over the bound is refused before any model call", async () => {
    const user = await signUp();
    const image = await storeFile(user.token, PNG, "chart.png", "image/png");
    const huge = await storeFile(user.token, new Uint8Array(IMAGE_MAX_BYTES + 1), "huge.png", "image/png");
    const socket = await open(user);

    const seen = await markedTurn(socket, "i1", [filePart(downloadPath(image), "chart.png", "image/png")]);
    expect(seen.error).toBeUndefined();
    const asked = seen.calls.at(-1)!.inputs.messages.findLast((m: { role: string }) => m.role === "user");
    expect(asked.content).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${btoa(String.fromCharCode(...PNG))}` },
    });

    const refused = await markedTurn(socket, "i2", [filePart(downloadPath(huge), "huge.png", "image/png")]);
    expect(refused).toMatchObject({ asked: false, error: FILE_REFUSALS.imageTooLarge("huge.png") });
    socket.close();
  });

  it("I1: lets the model list the owner's files and read a text file, bounded; never another user's", async () => {
    const [user, other] = await Promise.all([signUp(), signUp()]);
    const body = `line one\n${"x".repeat(TEXT_INLINE_BYTES)}`;
    const key = await storeFile(user.token, body, "plan.md", "text/markdown");
    await storeFile(user.token, PNG, "photo.png", "image/png");
    const foreign = await storeFile(other.token, "not yours", "theirs.txt", "text/plain", "public");
    const socket = await open(user);

    sendTurn(socket, "l1", '[script:tool:listFiles {"nameContains":"plan"}]');
    await turnOutcome(socket, "l1");
    await expect.poll(() => toolOutput(user, "listFiles")).toMatchObject({ state: "output-available" });
    expect((await toolOutput(user, "listFiles"))!.output).toEqual({
      items: [expect.objectContaining({ key, name: "plan.md", url: downloadPath(key) })],
      nextCursor: null,
    });

    sendTurn(socket, "r1", `[script:tool:readFile {"key":${JSON.stringify(key)}}]`);
    await turnOutcome(socket, "r1");
    await expect.poll(() => toolOutput(user, "readFile")).toMatchObject({ state: "output-available" });
    const read = (await toolOutput(user, "readFile"))!.output;
    expect(read).toMatchObject({ key, truncated: true });
    // Fenced as untrusted data (I10), the text inside cut at the bound.
    const inside = /\n<file-data-([0-9a-f]{24})>\n([\s\S]*)\n<\/file-data-\1>$/.exec(read.text)?.[2];
    expect(inside).toBe(body.slice(0, TEXT_INLINE_BYTES));

    for (const [id, target, error] of [
      ["r2", foreign, "File not found"],
      ["r3", `${key}-gone`, "File not found"],
    ] as const) {
      sendTurn(socket, id, `[script:tool:readFile {"key":${JSON.stringify(target)}}]`);
      await turnOutcome(socket, id);
      await expect.poll(async () => (await toolOutput(user, "readFile"))?.errorText).toBe(error);
    }
    socket.close();
  });
});
