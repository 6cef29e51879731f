import { createRoute } from "@hono/zod-openapi";
import { IdempotencyHeaders, idempotent } from "../../http/idempotency";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { keyAccess } from "../../http/route-access";
import {
  ChatIdParams,
  ChatListQuery,
  ChatPageSchema,
  ChatSchema,
  CreateChatBody,
  DeletedChatSchema,
  RenameChatBody,
} from "./chats.schemas";
import { MAX_CHATS } from "../../chats/chats";

const tags = ["Chats"];
const YOURS_ONLY = "Yours only: another user's chat answers 404 `Chat not found`, as an unknown id does.";

export const create = createRoute({
  operationId: "createChat",
  ...keyAccess("chats:write"),
  method: "post",
  path: "/api/chats",
  tags,
  summary: "Start a chat",
  description:
    "The id is chosen by the server and names the chat's agent instance: get a connect ticket for " +
    '`{ agent: "chat-agent", name: <id> }` and open `/agents/chat-agent/<id>?ticket=...`. Only you reach it, ' +
    `whatever \`AGENTS_REQUIRE_AUTH\` says. Without a title, the first exchange gives it one. At most ${MAX_CHATS} ` +
    "chats each (409).",
  middleware: [idempotent("POST /api/chats")] as const,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateChatBody) },
  responses: {
    201: okContent(ChatSchema, "The new chat"),
    ...errorResponses(400, 401, 403, 409, 413, 422),
  },
});

export const list = createRoute({
  operationId: "listChats",
  ...keyAccess("chats:read"),
  method: "get",
  path: "/api/chats",
  tags,
  summary: "List your chats, most recent activity first",
  description:
    "Keyset paging: pass `nextCursor` back as `cursor`. Each chat carries its title, message count and a " +
    "preview of its latest message, from the index (no chat is woken to list it). A chat that changes while " +
    "you page moves to the first page.",
  request: { query: ChatListQuery },
  responses: {
    200: okContent(ChatPageSchema, "One page of your chats"),
    ...errorResponses(400, 401, 403),
  },
});

export const getOne = createRoute({
  operationId: "getChat",
  ...keyAccess("chats:read"),
  method: "get",
  path: "/api/chats/{id}",
  tags,
  summary: "Read one of your chats",
  description: `${YOURS_ONLY} The messages are at \`GET /agents/chat-agent/<id>/get-messages\`.`,
  request: { params: ChatIdParams },
  responses: {
    200: okContent(ChatSchema, "The chat"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const rename = createRoute({
  operationId: "renameChat",
  ...keyAccess("chats:write"),
  method: "post",
  path: "/api/chats/{id}",
  tags,
  summary: "Rename one of your chats",
  description: `Your title stays: the first exchange never replaces it. ${YOURS_ONLY}`,
  request: { params: ChatIdParams, body: jsonBody(RenameChatBody) },
  responses: {
    200: okContent(ChatSchema, "The renamed chat"),
    ...errorResponses(400, 401, 403, 404, 413),
  },
});

export const remove = createRoute({
  operationId: "deleteChat",
  method: "post",
  path: "/api/chats/{id}/delete",
  tags,
  summary: "Delete one of your chats",
  description:
    "Removes it from your list and wipes its agent's storage: messages, schedules and reminders. Its open " +
    "sockets close; a connect or `get-messages` for it then answers 404. Needs a sign-in, not an API key. " +
    YOURS_ONLY,
  request: { params: ChatIdParams },
  responses: {
    200: okContent(DeletedChatSchema, "Deleted"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type RenameRoute = typeof rename;
export type RemoveRoute = typeof remove;
