import type { Context } from "hono";
import { findAuthUserById } from "../../auth/auth-user.queries";
import { userGoneOr } from "../../http/require-auth";
import { jwtSecret } from "../../auth/tokens";
import { background } from "../../http/background";
import { ifNoneMatchHits } from "../../http/conditional-requests";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { pageOf, pageOffset } from "../../core/paging";
import type { AuthedEnv, AuthedRouteContext } from "../../http/types";
import { KeyTakenError } from "../../idempotency/keyed-writes";
import { createdTodoOf, type CreatedTodo } from "../../todos/todo-create.queries";
import * as writes from "../../todos/todo-writes";
import { listAttachments } from "../../todos/attachments.queries";
import { INVALID_SYNC_CURSOR } from "../../todos/sync-cursors";
import { syncTodos } from "../../todos/todo-sync";
import * as queries from "../../todos/todos.queries";
import { ifMatchVersions, todoEtag } from "./todo-etags";
import type {
  CreateRoute,
  GetOneRoute,
  ListForUserRoute,
  ListRoute,
  RemoveRoute,
  RestoreRoute,
  UpdateRoute,
} from "./todos.routes";

const notFound = () => new ApiError(404, "Todo not found");
const CURSOR_HEADER = "X-Todos-Cursor";

function writer(c: Context<AuthedEnv>): writes.TodoWriter {
  // The live feed is woken after the answer; the write itself has committed by then.
  return { env: c.env, db: c.get("db"), logger: c.get("logger"), waitUntil: background(c) };
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

export async function list(c: AuthedRouteContext<ListRoute>) {
  const query = c.req.valid("query");
  const userId = c.get("user").id;
  if (query.updatedSince === undefined) return ok(c, await listPage(c, userId, query));
  const secret = jwtSecret(c.env);
  const answer = await syncTodos(c.get("db"), secret, userId, query.updatedSince, query.pageSize);
  if (answer.kind === "invalid") throw new ApiError(400, INVALID_SYNC_CURSOR);
  if (answer.kind === "stale") {
    throw new ApiError(
      410,
      "Sync cursor too old: list your todos in full, then sync from the X-Todos-Cursor of this answer",
      undefined,
      { [CURSOR_HEADER]: answer.cursor },
    );
  }
  const { changes, cursor, hasMore } = answer;
  c.header(CURSOR_HEADER, cursor);
  return ok(c, { changes, cursor, hasMore });
}

export async function listForUser(c: AuthedRouteContext<ListForUserRoute>) {
  const { userId } = c.req.valid("param");
  const viewer = c.get("user");
  if (viewer.role !== "admin" && viewer.id !== userId) {
    throw new ApiError(403, "You can only list your own todos");
  }
  if (viewer.id !== userId && !(await findAuthUserById(c.get("db"), userId))) {
    throw new ApiError(404, "User not found");
  }
  return ok(c, await listPage(c, userId, c.req.valid("query")));
}

/** A new todo's answer, for the write and for its Idempotency-Key's replays alike. */
function createdTodo(c: Context<AuthedEnv>, { todo, attachments }: CreatedTodo) {
  c.header("ETag", todoEtag(todo));
  return created(c, { ...todo, attachments });
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { attachments = [], ...fields } = c.req.valid("json");
  const userId = c.get("user").id;
  // With an Idempotency-Key, the create takes it in its own batch (the route's middleware hands it over).
  const key = c.get("idempotencyKey");
  let result;
  try {
    result = await writes.createTodo(writer(c), userId, fields, attachments, key?.write);
  } catch (err) {
    if (key && err instanceof KeyTakenError) {
      return key.answerTaken((kept) => createdTodo(c, createdTodoOf(kept)));
    }
    throw userGoneOr(err, userId);
  }
  return createdTodo(c, result);
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const { id } = c.req.valid("param");
  const db = c.get("db");
  const todo = await queries.findTodoForUser(db, id, c.get("user").id);
  if (!todo) throw notFound();
  const etag = todoEtag(todo);
  if (ifNoneMatchHits(c.req.header("If-None-Match"), etag)) {
    return c.body(null, 304, { ETag: etag });
  }
  c.header("ETag", etag);
  return ok(c, { ...todo, attachments: await listAttachments(db, id) });
}

/** A 412 names the version the todo has now, so the client can read it again (or show it). */
function staleAnswer(err: unknown): unknown {
  if (!(err instanceof writes.StaleVersionError)) return err;
  return new ApiError(412, `${err.message}; read it again, then retry`, undefined, {
    ETag: todoEtag(err.current),
  });
}

export async function update(c: AuthedRouteContext<UpdateRoute>) {
  const { id } = c.req.valid("param");
  const { attachments, ...fields } = c.req.valid("json");
  const expected = ifMatchVersions(c.req.header("If-Match"), id);
  const todo = await writes
    .updateTodo(writer(c), id, c.get("user").id, fields, attachments, expected)
    .catch((err: unknown) => Promise.reject(staleAnswer(err)));
  if (!todo) throw notFound();
  c.header("ETag", todoEtag(todo));
  return ok(c, { ...todo, attachments: await listAttachments(c.get("db"), id) });
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { id } = c.req.valid("param");
  const expected = ifMatchVersions(c.req.header("If-Match"), id);
  const deleted = await writes
    .deleteTodo(writer(c), id, c.get("user").id, expected)
    .catch((err: unknown) => Promise.reject(staleAnswer(err)));
  if (deleted === null) throw notFound();
  return ok(c, deleted);
}

export async function restore(c: AuthedRouteContext<RestoreRoute>) {
  const { id } = c.req.valid("param");
  const todo = await writes.restoreTodo(writer(c), id, c.get("user").id);
  if (!todo) throw notFound();
  c.header("ETag", todoEtag(todo));
  return ok(c, { ...todo, attachments: await listAttachments(c.get("db"), id) });
}
