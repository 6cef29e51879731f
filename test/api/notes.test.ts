import { describe, expect, it } from "vitest";
import { dataDb } from "../helpers/shards";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { api, expectData, expectError } from "../helpers/http";
import {
  DeletedNoteSchema,
  MAX_NOTES,
  NoteListSchema,
  NoteSchema,
} from "../../src/routes/notes/notes.schemas";

const write = (user: SignedUpUser, json: unknown) =>
  api("/api/notes", { method: "POST", token: user.token, json });
const list = (user: SignedUpUser) => api("/api/notes", { token: user.token });
const remove = (user: SignedUpUser, id: number | string) =>
  api(`/api/notes/${id}/delete`, { method: "POST", token: user.token });

describe("notes: POST/GET /api/notes, POST /api/notes/:id/delete", () => {
  it("writes notes, lists them newest first, and deletes one", async () => {
    const ada = await signUp();
    const first = expectData(await write(ada, { text: "  Call the bank  " }), 201, NoteSchema);
    expect(first.text).toBe("Call the bank");
    const second = expectData(await write(ada, { text: "Water the plants" }), 201, NoteSchema);
    const { items } = expectData(await list(ada), 200, NoteListSchema);
    expect(items.map((n) => n.id)).toEqual([second.id, first.id]);

    expect(expectData(await remove(ada, first.id), 200, DeletedNoteSchema)).toEqual({ id: first.id });
    expect(expectData(await list(ada), 200, NoteListSchema).items.map((n) => n.id)).toEqual([second.id]);
  });

  it("answers 404 for another user's note, as for an unknown one, and never lists it", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    const note = expectData(await write(ada, { text: "Ada's" }), 201, NoteSchema);
    expectError(await remove(bob, note.id), 404, "Note not found");
    expect(expectData(await list(bob), 200, NoteListSchema).items).toEqual([]);
    expect(expectData(await list(ada), 200, NoteListSchema).items).toHaveLength(1);
  });

  it("refuses bad input with a 400 and no sign-in with a 401", async () => {
    const ada = await signUp();
    expectError(await write(ada, { text: "   " }), 400, /Must not be blank/);
    expectError(await write(ada, { text: "x".repeat(1001) }), 400);
    expectError(await write(ada, { text: "ok", userId: 1 }), 400);
    expectError(await write(ada, {}), 400);
    expectError(await remove(ada, "abc"), 400);
    expectError(await api("/api/notes"), 401);
    const key = await createKey(ada.token, ["todos:read"]);
    expectError(await api("/api/notes", { token: key.key }), 403);
  });

  it(`refuses a note past ${MAX_NOTES} with a 409`, async () => {
    const ada = await signUp();
    const db = await dataDb({ userId: ada.userId });
    const insert = db.prepare("INSERT INTO notes_table (userId, text) VALUES (?, ?)");
    await db.batch(Array.from({ length: MAX_NOTES }, (_, i) => insert.bind(ada.userId, `note ${i}`)));
    expectError(await write(ada, { text: "one more" }), 409, `At most ${MAX_NOTES} notes: delete one first`);
  });
});
