import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import { ownDb } from "../../http/workspace-db";
import {
  countNotesForUser,
  deleteNoteForUser,
  insertNote,
  listNotesForUser,
} from "../../notes/notes.queries";
import type { CreateRoute, ListRoute, RemoveRoute } from "./notes.routes";
import { MAX_NOTES } from "./notes.schemas";

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const db = await ownDb(c);
  const userId = c.get("user").id;
  // Two requests at once may pass the cap by one: it bounds storage, it is not a count to the unit.
  if ((await countNotesForUser(db, userId)) >= MAX_NOTES)
    throw new ApiError(409, `At most ${MAX_NOTES} notes: delete one first`);
  return created(c, await insertNote(db, userId, c.req.valid("json").text));
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  return ok(c, { items: await listNotesForUser(await ownDb(c), c.get("user").id, MAX_NOTES) });
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const note = await deleteNoteForUser(await ownDb(c), c.get("user").id, c.req.valid("param").id);
  if (!note) throw new ApiError(404, "Note not found");
  return ok(c, note);
}
