import { createRoute } from "@hono/zod-openapi";
import { keyAccess } from "../../http/route-access";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import {
  CreateTodoBody,
  DeletedTodoSchema,
  TodoIdParams,
  TodoListQuery,
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
  summary: "List your todos, paged",
  description: "Newest first (by id). `pageTodoVo` items carry no attachments; read one todo for those.",
  request: { query: TodoListQuery },
  responses: {
    200: okContent(TodoPageSchema, "One page of your todos"),
    ...errorResponses(400, 401, 403),
  },
});

export const create = createRoute({
  operationId: "createTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos",
  tags,
  summary: "Create a todo, optionally with attachments",
  description:
    "The owner is the signed-in user. Each `attachments[].fileKey` is looked up in R2; missing keys are dropped. " +
    "The todo and its attachment rows are written in one D1 batch (atomic).",
  request: { body: jsonBody(CreateTodoBody) },
  responses: {
    201: okContent(TodoWithAttachmentsSchema, "The new todo with its attachments"),
    ...errorResponses(400, 401, 403, 413, 503),
  },
});

export const getOne = createRoute({
  operationId: "getTodo",
  ...keyAccess("todos:read"),
  method: "get",
  path: "/api/todos/{id}",
  tags,
  summary: "Read one of your todos with its attachments",
  description: "Another user's todo answers 404, as a missing one does.",
  request: { params: TodoIdParams },
  responses: {
    200: okContent(TodoWithAttachmentsSchema, "The todo"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const update = createRoute({
  operationId: "updateTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos/{id}",
  tags,
  summary: "Update one of your todos",
  description:
    "`attachments` omitted: unchanged; `[]`: all removed; otherwise replaced by the given set. The todo update, " +
    "the removal of the old rows and the insertion of the new ones run as one ordered D1 batch: if any statement " +
    "fails, nothing changes. `completedAt` is set when `completed` turns true and cleared when it turns false. " +
    "Stored objects are never deleted.",
  request: { params: TodoIdParams, body: jsonBody(UpdateTodoBody) },
  responses: {
    200: okContent(TodoWithAttachmentsSchema, "The updated todo"),
    ...errorResponses(400, 401, 403, 404, 413, 503),
  },
});

export const remove = createRoute({
  operationId: "removeTodo",
  ...keyAccess("todos:write"),
  method: "post",
  path: "/api/todos/{id}/delete",
  tags,
  summary: "Delete one of your todos",
  description: "Its attachment rows go by cascade; the stored objects stay in R2.",
  request: { params: TodoIdParams },
  responses: {
    200: okContent(DeletedTodoSchema, "The id of the deleted todo"),
    ...errorResponses(400, 401, 403, 404),
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
  request: { params: UserTodosParams, query: TodoListQuery },
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
export type ListForUserRoute = typeof listForUser;
