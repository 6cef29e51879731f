import type { Context } from "hono";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedEnv, AuthedRouteHandler } from "../../http/types";
import { resolveAttachments, type AttachmentFile } from "../../todos/attachments";
import { callStorage } from "../../files/storage-errors";
import { pageOf, pageOffset } from "../../http/paging";
import { forgetAuthUser } from "../../auth/auth-user-cache";
import { findAuthUserById } from "../../auth/auth-user.queries";
import { AUTH_FAILURE_MESSAGES } from "../../auth/authenticate";
import { foreignKeyViolation } from "../../db/errors";
import { unauthorized } from "../../auth/require-auth";
import { syncTodoReminder } from "../../todos/reminders";
import * as queries from "../../todos/todos.queries";
import type {
  CreateRoute,
  GetOneRoute,
  ListForUserRoute,
  ListRoute,
  RemoveRoute,
  UpdateRoute,
} from "./todos.routes";

const notFound = () => new ApiError(404, "Todo not found");

/** R2 lookups for the submitted keys; an R2 failure is a 503 before anything is written. */
function attachmentFiles(c: Context<AuthedEnv>, inputs: { fileKey: string }[]): Promise<AttachmentFile[]> {
  return callStorage("head", () => resolveAttachments(c.env.R2_BUCKET, inputs));
}

async function listPage(
  c: Context<AuthedEnv>,
  userId: number,
  query: { page: number; pageSize: number; completed?: boolean },
) {
  const { items, total } = await queries.listTodosForUser(c.get("db"), userId, {
    completed: query.completed,
    offset: pageOffset(query),
    limit: query.pageSize,
  });
  return pageOf(items, total, query);
}

export const list: AuthedRouteHandler<ListRoute> = async (c) => {
  return ok(c, await listPage(c, c.get("user").id, c.req.valid("query")));
};

export const listForUser: AuthedRouteHandler<ListForUserRoute> = async (c) => {
  const { userId } = c.req.valid("param");
  const viewer = c.get("user");
  if (viewer.role !== "admin" && viewer.id !== userId) {
    throw new ApiError(403, "You can only list your own todos");
  }
  if (viewer.id !== userId && !(await findAuthUserById(c.get("db"), userId))) {
    throw new ApiError(404, "User not found");
  }
  return ok(c, await listPage(c, userId, c.req.valid("query")));
};

export const create: AuthedRouteHandler<CreateRoute> = async (c) => {
  const { attachments = [], ...fields } = c.req.valid("json");
  const userId = c.get("user").id;
  const files = await attachmentFiles(c, attachments);
  let result;
  try {
    result = await queries.insertTodoWithAttachments(c.get("db"), { ...fields, userId }, files);
  } catch (err) {
    // The owner was deleted after the gate let this request in: answered as the gate would now.
    if (!foreignKeyViolation(err)) throw err;
    forgetAuthUser(userId);
    throw unauthorized(AUTH_FAILURE_MESSAGES.user_gone, true);
  }
  await syncTodoReminder(c.env, c.get("logger"), result.todo);
  return created(c, { ...result.todo, attachments: result.attachments });
};

export const getOne: AuthedRouteHandler<GetOneRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const db = c.get("db");
  const todo = await queries.findTodoForUser(db, id, c.get("user").id);
  if (!todo) throw notFound();
  return ok(c, { ...todo, attachments: await queries.listAttachments(db, id) });
};

export const update: AuthedRouteHandler<UpdateRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const { attachments, ...fields } = c.req.valid("json");
  const userId = c.get("user").id;
  const db = c.get("db");
  // Checked first so a foreign or missing id costs no R2 lookups.
  if (!(await queries.findTodoForUser(db, id, userId))) throw notFound();
  const files = attachments === undefined ? undefined : await attachmentFiles(c, attachments);
  const todo = await queries.updateTodoWithAttachments(db, id, userId, fields, files);
  if (!todo) throw notFound();
  await syncTodoReminder(c.env, c.get("logger"), todo);
  return ok(c, { ...todo, attachments: await queries.listAttachments(db, id) });
};

export const remove: AuthedRouteHandler<RemoveRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const userId = c.get("user").id;
  const deleted = await queries.deleteTodoForUser(c.get("db"), id, userId);
  if (deleted === null) throw notFound();
  await syncTodoReminder(c.env, c.get("logger"), { id, userId, deleted: true });
  return ok(c, { id: deleted });
};
