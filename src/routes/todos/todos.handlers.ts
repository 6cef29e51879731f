import type { Context } from "hono";
import type { Db } from "../../db/client";
import { findAuthUserById } from "../../auth/auth-user.queries";
import { orgOwner, userOwner, type Owner } from "../../core/owner";
import { auditActorOf } from "../../http/audit-actor";
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
import { todoOwner } from "../../todos/todo-events";
import { listAttachments } from "../../todos/attachments.queries";
import { INVALID_SYNC_CURSOR } from "../../todos/sync-cursors";
import { withAuthors, withAuthorsOf } from "../../todos/todo-authors";
import { todoOwnerFor, type TodoAction } from "../../todos/todo-reach";
import { deniedTodoAction, findTodoPlaced, placeReach } from "../../todos/todo-places";
import { syncTodos } from "../../todos/todo-sync";
import { TeamAccessRefused, withTeamRole } from "../../todos/team-role-check";
import type { TodoRow } from "../../todos/todos.queries";
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
  return {
    env: c.env,
    dbs: c.var.dbs,
    logger: c.get("logger"),
    waitUntil: background(c),
    actor: auditActorOf(c),
  };
}

/** What a todo route reaches: the caller's own todos, and their teams' by role, with their databases. */
const reach = (c: Context<AuthedEnv>) => placeReach(c.var.dbs, c.get("user").id, true);

/**
 * The owner a list or a delta sync names, with its database: the caller, or with `orgId` a team of theirs
 * (a non-member, as for a team that does not exist, 404).
 */
async function readableOwner(
  c: Context<AuthedEnv>,
  orgId: number | undefined,
): Promise<{ owner: Owner; db: Db }> {
  // The caller's own: their route alone (usually remembered by the isolate), no memberships to read.
  if (orgId === undefined) {
    const owner = userOwner(c.get("user").id);
    return { owner, db: await c.var.dbs.of(owner) };
  }
  const placed = await reach(c);
  const named = todoOwnerFor(placed, orgId, "data:read");
  if (!named.ok) throw new ApiError(named.notMember ? 404 : 403, named.message);
  return { owner: named.owner, db: placed.dbOf(named.owner) };
}

/** A todo out of reach: 403 when it is the caller's team's and their role lacks `action`, else 404. */
async function missing(c: Context<AuthedEnv>, id: number, action: TodoAction): Promise<never> {
  const denied = await deniedTodoAction(await reach(c), id, action);
  throw denied ? new ApiError(403, denied) : notFound();
}

/** A todo's answer (`db`: where it lives): with its authors and attachments, and its ETag. */
async function todoAnswer(c: Context<AuthedEnv>, db: Db, todo: TodoRow) {
  c.header("ETag", todoEtag(todo));
  const [authored, attachments] = await Promise.all([
    withAuthorsOf(c.var.dbs.directory, c.get("user"), todo),
    listAttachments(db, todo.id),
  ]);
  return { ...authored, attachments };
}

type PageQuery = { page: number; pageSize: number; completed?: boolean };

const pageOptions = (query: PageQuery) => ({
  completed: query.completed,
  offset: pageOffset(query),
  limit: query.pageSize,
});

/** A page of todos as the list answers it: each with its authors. */
async function pageAnswer(c: Context<AuthedEnv>, { items, total }: queries.TodoPage, query: PageQuery) {
  return pageOf(await withAuthors(c.var.dbs.directory, c.get("user"), items), total, query);
}

async function listPage(c: Context<AuthedEnv>, { owner, db }: { owner: Owner; db: Db }, query: PageQuery) {
  return pageAnswer(c, await queries.listTodosOf(db, owner, pageOptions(query)), query);
}

/**
 * A page of team `orgId`'s todos: the reader's role is read from the team's database in the page's own
 * batch (src/todos/team-role-check.ts), so the list costs a personal list's one round trip.
 */
async function teamPage(c: Context<AuthedEnv>, orgId: number, query: PageQuery) {
  const userId = c.get("user").id;
  const db = await c.var.dbs.of(orgOwner(orgId));
  const page = await withTeamRole(c.var.dbs, db, orgId, userId, "data:read", () =>
    queries.listTeamTodosFor(db, orgId, userId, pageOptions(query)),
  ).catch((err: unknown) => Promise.reject(refusedBy(err)));
  return pageAnswer(c, page, query);
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const query = c.req.valid("query");
  if (query.updatedSince === undefined && query.orgId !== undefined) {
    return ok(c, await teamPage(c, query.orgId, query));
  }
  const place = await readableOwner(c, query.orgId);
  if (query.updatedSince === undefined) return ok(c, await listPage(c, place, query));
  const secret = jwtSecret(c.env);
  const answer = await syncTodos(place.db, secret, place.owner, query.updatedSince, query.pageSize);
  if (answer.kind === "invalid") throw new ApiError(400, INVALID_SYNC_CURSOR);
  if (answer.kind === "stale") {
    throw new ApiError(
      410,
      "Sync cursor too old: list your todos in full, then sync from the X-Todos-Cursor of this answer",
      undefined,
      { [CURSOR_HEADER]: answer.cursor },
    );
  }
  const { cursor, hasMore } = answer;
  const todos = await withAuthors(
    c.var.dbs.directory,
    c.get("user"),
    answer.changes.flatMap((change) => (change.todo ? [change.todo] : [])),
  );
  const byId = new Map(todos.map((todo) => [todo.id, todo]));
  const changes = answer.changes.map((change) => ({
    ...change,
    todo: change.todo && byId.get(change.todo.id)!,
  }));
  c.header(CURSOR_HEADER, cursor);
  return ok(c, { changes, cursor, hasMore });
}

export async function listForUser(c: AuthedRouteContext<ListForUserRoute>) {
  const { userId } = c.req.valid("param");
  const viewer = c.get("user");
  if (viewer.role !== "admin" && viewer.id !== userId) {
    throw new ApiError(403, "You can only list your own todos");
  }
  if (viewer.id !== userId && !(await findAuthUserById(c.var.dbs.directory, userId))) {
    throw new ApiError(404, "User not found");
  }
  const owner = userOwner(userId);
  return ok(c, await listPage(c, { owner, db: await c.var.dbs.of(owner) }, c.req.valid("query")));
}

/** A new todo's answer, for the write and for its Idempotency-Key's replays alike. */
async function createdTodo(c: Context<AuthedEnv>, { todo, attachments }: CreatedTodo) {
  c.header("ETag", todoEtag(todo));
  return created(c, { ...(await withAuthorsOf(c.var.dbs.directory, c.get("user"), todo)), attachments });
}

/** A team's refusal as REST answers it: 404 for a non-member (as for no such team), 403 for a role without the action. */
function refusedBy(err: unknown): unknown {
  return err instanceof TeamAccessRefused ? new ApiError(err.notMember ? 404 : 403, err.message) : err;
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { attachments = [], orgId, ...fields } = c.req.valid("json");
  const userId = c.get("user").id;
  // A team's create checks the writer's role in its own statement (src/todos/team-role-check.ts): no read
  // of the membership first. With an Idempotency-Key, the create takes it in the same batch (the route's
  // middleware hands it over).
  const key = c.get("idempotencyKey");
  let result;
  try {
    result = await writes.createTodo(writer(c), userId, fields, attachments, key?.write, orgId);
  } catch (err) {
    if (key && err instanceof KeyTakenError) {
      const db = await c.var.dbs.of(orgId === undefined ? userOwner(userId) : orgOwner(orgId));
      return key.answerTaken(db, (kept) => createdTodo(c, createdTodoOf(kept)));
    }
    throw refusedBy(userGoneOr(err, userId));
  }
  return createdTodo(c, result);
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const { id } = c.req.valid("param");
  const hit = await findTodoPlaced(await reach(c), id, "data:read");
  if (!hit) throw notFound();
  const { todo, db } = hit;
  const etag = todoEtag(todo);
  if (ifNoneMatchHits(c.req.header("If-None-Match"), etag)) {
    return c.body(null, 304, { ETag: etag });
  }
  return ok(c, await todoAnswer(c, db, todo));
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
  if (!todo) return missing(c, id, "data:write");
  return ok(c, await todoAnswer(c, (await reach(c)).dbOf(todoOwner(todo)), todo));
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { id } = c.req.valid("param");
  const expected = ifMatchVersions(c.req.header("If-Match"), id);
  const deleted = await writes
    .deleteTodo(writer(c), id, c.get("user").id, expected)
    .catch((err: unknown) => Promise.reject(staleAnswer(err)));
  if (deleted === null) return missing(c, id, "data:write");
  return ok(c, deleted);
}

export async function restore(c: AuthedRouteContext<RestoreRoute>) {
  const { id } = c.req.valid("param");
  const todo = await writes.restoreTodo(writer(c), id, c.get("user").id);
  if (!todo) return missing(c, id, "data:write");
  return ok(c, await todoAnswer(c, (await reach(c)).dbOf(todoOwner(todo)), todo));
}
