import { createRoute, z } from "@hono/zod-openapi";
import { IdempotencyHeaders, idempotent } from "../../http/idempotency";
import { keyAccess } from "../../http/route-access";
import { ETAG_HEADER, IfMatchHeaders, IfNoneMatchHeaders } from "./todo-etags";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import {
  CreateTodoBody,
  DeletedTodoSchema,
  TodoIdParams,
  TodoListQuery,
  TodoPageQuery,
  TodoChangesSchema,
  TodoPageSchema,
  TodoWithAttachmentsSchema,
  UpdateTodoBody,
  UserTodosParams,
} from "../../todos/todos.schemas";

const tags = ["Todos"];

export const list = createRoute({
  operationId: "listTodos",
  ...keyAccess("todos:read"),
  method: "get",
  path: "/api/todos",
  tags,
  summary: "List your todos, or a team's, paged; or, with updatedSince, what changed",
  description:
    "Newest first (by id). Without `orgId` your own todos, never a team's; with it, that team's (any role; " +
    "anyone else 404). `pageTodoVo` items carry no attachments; read one todo for those. With " +
    "`updatedSince` (delta sync) the answer is `TodoChanges` instead: every create, update and delete after " +
    "the cursor, once each, in commit order, with a `cursor` to send next time; replaying that cursor returns " +
    "nothing new. Start with `updatedSince=0`. The delta answer and its 410 carry the cursor in `X-Todos-Cursor`. " +
    "Each list (yours, each team's) has cursors of its own: another list's is 400.",
  request: { query: TodoListQuery },
  responses: {
    200: {
      ...okContent(
        z.union([TodoPageSchema, TodoChangesSchema]),
        "One page of your todos, or the changes after the cursor",
      ),
      headers: {
        "X-Todos-Cursor": { description: "Delta mode: the cursor to send next", schema: { type: "string" } },
      },
    },
    410: {
      ...errorResponses(410)[410],
      description:
        "The cursor is older than the change log (30 days): list in full, then sync from `X-Todos-Cursor`",
      headers: { "X-Todos-Cursor": { description: "The current cursor", schema: { type: "string" } } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

export const create = createRoute({
  operationId: "createTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos",
  tags,
  summary: "Create a todo, yours or a team's, optionally with attachments",
  description:
    "The owner is the signed-in user, or with `orgId` that team (members and up; viewers 403, anyone else " +
    "404); a team's create is recorded in its audit trail. Each `attachments[].fileKey` is looked up in R2; missing keys are dropped. " +
    "The todo and its attachment rows are written in one D1 batch (atomic). Send an `Idempotency-Key` to " +
    "retry safely: a retry answers the first todo again rather than creating a second.",
  middleware: [idempotent("POST /api/todos", { inBatch: true })] as const,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateTodoBody) },
  responses: {
    201: {
      ...okContent(TodoWithAttachmentsSchema, "The new todo with its attachments"),
      headers: ETAG_HEADER,
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 503),
  },
});

export const getOne = createRoute({
  operationId: "getTodo",
  ...keyAccess("todos:read"),
  method: "get",
  path: "/api/todos/{id}",
  tags,
  summary: "Read one of your todos, or of your teams', with its attachments",
  description:
    "Another user's todo, or a team's you are not in, answers 404, as a missing one does. The answer's `ETag` names the todo's version; " +
    "send it as `If-None-Match` for a 304 while the todo is unchanged.",
  request: { params: TodoIdParams, headers: IfNoneMatchHeaders },
  responses: {
    200: { ...okContent(TodoWithAttachmentsSchema, "The todo"), headers: ETAG_HEADER },
    304: { description: "`If-None-Match` matched: the todo is unchanged (no body)", headers: ETAG_HEADER },
    ...errorResponses(400, 401, 403, 404),
  },
});

export const update = createRoute({
  operationId: "updateTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos/{id}",
  tags,
  summary: "Update one of your todos, or of your teams'",
  description:
    "A team's todo: members and up (viewers 403); recorded in the team's audit trail. " +
    "`attachments` omitted: unchanged; `[]`: all removed; otherwise replaced by the given set. The todo update, " +
    "the removal of the old rows and the insertion of the new ones run as one ordered D1 batch: if any statement " +
    "fails, nothing changes. `completedAt` is set when `completed` turns true and cleared when it turns false. " +
    "Stored objects are never deleted. With `If-Match` (the `ETag` you read) a todo changed since answers " +
    "412 and nothing is written, so no one else's edit is lost.",
  request: { params: TodoIdParams, headers: IfMatchHeaders, body: jsonBody(UpdateTodoBody) },
  responses: {
    200: { ...okContent(TodoWithAttachmentsSchema, "The updated todo"), headers: ETAG_HEADER },
    ...errorResponses(400, 401, 403, 404, 412, 413, 503),
  },
});

export const remove = createRoute({
  operationId: "removeTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos/{id}/delete",
  tags,
  summary: "Delete one of your todos, or of your teams'",
  description:
    "A team's todo: members and up (viewers 403); recorded in the team's audit trail. " +
    "Gone at once (404, a `todo.deleted` tombstone); attachment rows go by cascade, objects stay in R2. " +
    "Restorable until `restorableUntil`. With `If-Match`, a todo changed since answers 412 and stays.",
  request: { params: TodoIdParams, headers: IfMatchHeaders },
  responses: {
    200: okContent(DeletedTodoSchema, "The id of the deleted todo"),
    ...errorResponses(400, 401, 403, 404, 412),
  },
});

export const restore = createRoute({
  operationId: "restoreTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos/{id}/restore",
  tags,
  summary: "Restore a deleted todo of yours or of your teams' (undo a delete)",
  description:
    "A team's todo: members and up (viewers 403), whoever deleted it. " +
    "Until `restorableUntil`: the same id, its attachments whose files exist, a version above its tombstone " +
    "(`todo.created` in sync and the feed). A todo not deleted is answered unchanged. Past the window: 410, " +
    "then 404 once purged.",
  request: { params: TodoIdParams },
  responses: {
    200: { ...okContent(TodoWithAttachmentsSchema, "The todo, restored"), headers: ETAG_HEADER },
    ...errorResponses(400, 401, 403, 404, 410, 503),
  },
});

export const listForUser = createRoute({
  operationId: "listTodosForUser",
  ...keyAccess("todos:read"),
  method: "get",
  path: "/api/users/{userId}/todos",
  tags,
  summary: "List one user's todos, paged (yourself, or anyone as an admin)",
  description: "Same paging and `completed` filter as listTodos; another user's list needs the admin role.",
  request: { params: UserTodosParams, query: TodoPageQuery },
  responses: {
    200: okContent(TodoPageSchema, "One page of the user's todos"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetOneRoute = typeof getOne;
export type UpdateRoute = typeof update;
export type RemoveRoute = typeof remove;
export type RestoreRoute = typeof restore;
export type ListForUserRoute = typeof listForUser;
