import type { Context } from "hono";
import { findAuthUserById } from "../../auth/auth-user.queries";
import { userGoneOr } from "../../auth/require-auth";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { pageOf, pageOffset } from "../../http/paging";
import type { AuthedEnv, AuthedRouteHandler } from "../../http/types";
import * as writes from "../../todos/todo-writes";
import { listAttachments } from "../../todos/attachments.queries";
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

function writer(c: Context<AuthedEnv>): writes.TodoWriter {
  return { env: c.env, db: c.get("db"), logger: c.get("logger") };
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
  let result;
  try {
    result = await writes.createTodo(writer(c), userId, fields, attachments);
  } catch (err) {
    throw userGoneOr(err, userId);
  }
  return created(c, { ...result.todo, attachments: result.attachments });
};

export const getOne: AuthedRouteHandler<GetOneRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const db = c.get("db");
  const todo = await queries.findTodoForUser(db, id, c.get("user").id);
  if (!todo) throw notFound();
  return ok(c, { ...todo, attachments: await listAttachments(db, id) });
};

export const update: AuthedRouteHandler<UpdateRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const { attachments, ...fields } = c.req.valid("json");
  const todo = await writes.updateTodo(writer(c), id, c.get("user").id, fields, attachments);
  if (!todo) throw notFound();
  return ok(c, { ...todo, attachments: await listAttachments(c.get("db"), id) });
};

export const remove: AuthedRouteHandler<RemoveRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const deleted = await writes.deleteTodo(writer(c), id, c.get("user").id);
  if (deleted === null) throw notFound();
  return ok(c, { id: deleted });
};
