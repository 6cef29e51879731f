import type { Context } from "hono";
import { createDb } from "../../db/client";
import { created, ok } from "../../lib/envelope";
import { ApiError } from "../../lib/errors";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { resolveAttachments, type AttachmentFile } from "../../services/attachments";
import { callStorage } from "../../services/storage-errors";
import { pageOf, pageOffset } from "../shared.schemas";
import { findAuthUserById } from "../../auth/auth-user.queries";
import { syncTodoReminder } from "../../agents/reminders";
import * as queries from "./todos.queries";
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
function attachmentFiles(c: Context<AppEnv>, inputs: { fileKey: string }[]): Promise<AttachmentFile[]> {
  return callStorage(c.get("logger"), "head", () => resolveAttachments(c.env.R2_BUCKET, inputs));
}

async function listPage(
  c: Context<AppEnv>,
  userId: number,
  query: { page: number; pageSize: number; completed?: boolean },
) {
  const { items, total } = await queries.listTodosForUser(createDb(c.env.DB), userId, {
    completed: query.completed,
    offset: pageOffset(query),
    limit: query.pageSize,
  });
  return pageOf(items, total, query);
}

export const list: AppRouteHandler<ListRoute> = async (c) => {
  return ok(c, await listPage(c, c.get("user").id, c.req.valid("query")));
};

export const listForUser: AppRouteHandler<ListForUserRoute> = async (c) => {
  const { userId } = c.req.valid("param");
  const viewer = c.get("user");
  if (viewer.role !== "admin" && viewer.id !== userId) {
    throw new ApiError(403, "You can only list your own todos");
  }
  if (viewer.id !== userId && !(await findAuthUserById(createDb(c.env.DB), userId))) {
    throw new ApiError(404, "User not found");
  }
  return ok(c, await listPage(c, userId, c.req.valid("query")));
};

export const create: AppRouteHandler<CreateRoute> = async (c) => {
  const { attachments = [], ...fields } = c.req.valid("json");
  const files = await attachmentFiles(c, attachments);
  const result = await queries.insertTodoWithAttachments(
    createDb(c.env.DB),
    { ...fields, userId: c.get("user").id },
    files,
  );
  await syncTodoReminder(c.env, c.get("logger"), result.todo);
  return created(c, { ...result.todo, attachments: result.attachments });
};

export const getOne: AppRouteHandler<GetOneRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const db = createDb(c.env.DB);
  const todo = await queries.findTodoForUser(db, id, c.get("user").id);
  if (!todo) throw notFound();
  return ok(c, { ...todo, attachments: await queries.listAttachments(db, id) });
};

export const update: AppRouteHandler<UpdateRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const { attachments, ...fields } = c.req.valid("json");
  const userId = c.get("user").id;
  const db = createDb(c.env.DB);
  // Checked first so a foreign or missing id costs no R2 lookups.
  if (!(await queries.findTodoForUser(db, id, userId))) throw notFound();
  const files = attachments === undefined ? undefined : await attachmentFiles(c, attachments);
  const todo = await queries.updateTodoWithAttachments(db, id, userId, fields, files);
  if (!todo) throw notFound();
  await syncTodoReminder(c.env, c.get("logger"), todo);
  return ok(c, { ...todo, attachments: await queries.listAttachments(db, id) });
};

export const remove: AppRouteHandler<RemoveRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const userId = c.get("user").id;
  const deleted = await queries.deleteTodoForUser(createDb(c.env.DB), id, userId);
  if (deleted === null) throw notFound();
  await syncTodoReminder(c.env, c.get("logger"), { id, userId, deleted: true });
  return ok(c, { id: deleted });
};
