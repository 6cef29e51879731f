import { createRoute } from "@hono/zod-openapi";
import { IdParams } from "../../core/paging";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { CreateNoteBody, DeletedNoteSchema, MAX_NOTES, NoteListSchema, NoteSchema } from "./notes.schemas";

const tags = ["Notes"];
const YOURS_ONLY = "Needs a sign-in, not an API key. Another user's note answers 404, as an unknown id does.";

export const create = createRoute({
  operationId: "createNote",
  method: "post",
  path: "/api/notes",
  tags,
  summary: "Write a note",
  description: `Up to 1,000 characters. At most ${MAX_NOTES} notes each (409). ${YOURS_ONLY}`,
  request: { body: jsonBody(CreateNoteBody) },
  responses: {
    201: okContent(NoteSchema, "The note"),
    ...errorResponses(400, 401, 403, 409, 413),
  },
});

export const list = createRoute({
  operationId: "listNotes",
  method: "get",
  path: "/api/notes",
  tags,
  summary: "List your notes, newest first",
  description: `All of them (at most ${MAX_NOTES}). ${YOURS_ONLY}`,
  responses: {
    200: okContent(NoteListSchema, "Your notes"),
    ...errorResponses(401, 403),
  },
});

export const remove = createRoute({
  operationId: "deleteNote",
  method: "post",
  path: "/api/notes/{id}/delete",
  tags,
  summary: "Delete a note",
  description: YOURS_ONLY,
  request: { params: IdParams },
  responses: {
    200: okContent(DeletedNoteSchema, "Deleted"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type RemoveRoute = typeof remove;
