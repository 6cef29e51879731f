import type { Context } from "hono";
import { findAuthUserById } from "../../auth/auth-user.queries";
import { userOwner, type Owner } from "../../core/owner";
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
import { forgetMembership } from "../../orgs/membership";
import { createdTodoOf, TeamWriteRefusedError, type CreatedTodo } from "../../todos/todo-create.queries";
import * as writes from "../../todos/todo-writes";
import { listAttachments } from "../../todos/attachments.queries";
import { INVALID_SYNC_CURSOR } from "../../todos/sync-cursors";
import { withAuthors, withAuthorsOf } from "../../todos/todo-authors";
import { deniedTodoAction, todoOwnerFor, type TodoAction } from "../../todos/todo-reach";
import { syncTodos } from "../../todos/todo-sync";
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
    db: c.get("db"),
    logger: c.get("logger"),
    waitUntil: background(c),
    actor: auditActorOf(c),
  };
}

/** What a todo route reaches: the caller's own todos, and their teams' by role. */
const reach = (c: Context<AuthedEnv>) => ({ userId: c.get("user").id, teams: true });

/**
 * The owner a list or create names: the caller, or with `orgId` a team of theirs whose role may
 * `action` (a non-member, as for a team that does not exist, 404; a role without it 403).
 */
async function ownerFor(
  c: Context<AuthedEnv>,
  orgId: number | undefined,
  action: TodoAction,
): Promise<Owner> {
  const named = await todoOwnerFor(c.get("db"), c.get("user").id, orgId, action);
  if (!named.ok) throw new ApiError(named.notMember ? 404 : 403, named.message);
  return named.owner;
}

/** A todo out of reach: 403 when it is the caller's team's and their role lacks `action`, else 404. */
async function missing(c: Context<AuthedEnv>, id: number, action: TodoAction): Promise<never> {
  const denied = await deniedTodoAction(c.get("db"), id, c.get("user").id, action);
  throw denied ? new ApiError(403, denied) : notFound();
}

/** A todo's answer: with its authors and attachments, and its ETag. */
async function todoAnswer(c: Context<AuthedEnv>, todo: TodoRow) {
  const db = c.get("db");
  c.header("ETag", todoEtag(todo));
  const [authored, attachments] = await Promise.all([
    withAuthorsOf(db, c.get("user"), todo),
    listAttachments(db, todo.id),
  ]);
  return { ...authored, attachments };
}

async function listPage(
  c: Context<AuthedEnv>,
  owner: Owner,
  query: { page: number; pageSize: number; completed?: boolean },
) {
  const db = c.get("db");
  const { items, total } = await queries.listTodosOf(db, owner, {
    completed: query.completed,
    offset: pageOffset(query),
    limit: query.pageSize,
  });
  return pageOf(await withAuthors(db, c.get("user"), items), total, query);
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const query = c.req.valid("query");
  const owner = await ownerFor(c, query.orgId, "data:read");
  if (query.updatedSince === undefined) return ok(c, await listPage(c, owner, query));
  const secret = jwtSecret(c.env);
  const answer = await syncTodos(c.get("db"), secret, owner, query.updatedSince, query.pageSize);
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
    c.get("db"),
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
  if (viewer.id !== userId && !(await findAuthUserById(c.get("db"), userId))) {
    throw new ApiError(404, "User not found");
  }
  return ok(c, await listPage(c, userOwner(userId), c.req.valid("query")));
}

/** A new todo's answer, for the write and for its Idempotency-Key's replays alike. */
async function createdTodo(c: Context<AuthedEnv>, { todo, attachments }: CreatedTodo) {
  c.header("ETag", todoEtag(todo));
  return created(c, { ...(await withAuthorsOf(c.get("db"), c.get("user"), todo)), attachments });
}

/**
 * Why a team create's own statement refused the writer: 404 for a non-member, 403 for a role that may
 * not write (read afresh, not from this isolate's memory of the role); the error itself if neither.
 */
async function refusedTeamWrite(c: Context<AuthedEnv>, orgId: number, err: TeamWriteRefusedError) {
  forgetMembership(orgId, c.get("user").id);
  await ownerFor(c, orgId, "data:write");
  return err;
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { attachments = [], orgId, ...fields } = c.req.valid("json");
  const userId = c.get("user").id;
  // With an Idempotency-Key, the create takes it in its own batch (the route's middleware hands it over).
  // A team's create checks the writer's role in that batch too: no read of the membership first.
  const key = c.get("idempotencyKey");
  let result;
  try {
    result = await writes.createTodo(writer(c), userId, fields, attachments, key?.write, orgId);
  } catch (err) {
    if (orgId !== undefined && err instanceof TeamWriteRefusedError)
      throw await refusedTeamWrite(c, orgId, err);
    if (key && err instanceof KeyTakenError) {
      return key.answerTaken((kept) => createdTodo(c, createdTodoOf(kept)));
    }
    throw userGoneOr(err, userId);
  }
  return createdTodo(c, result);
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const { id } = c.req.valid("param");
  const todo = await queries.findTodoInReach(c.get("db"), id, reach(c), "data:read");
  if (!todo) throw notFound();
  const etag = todoEtag(todo);
  if (ifNoneMatchHits(c.req.header("If-None-Match"), etag)) {
    return c.body(null, 304, { ETag: etag });
  }
  return ok(c, await todoAnswer(c, todo));
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
  return ok(c, await todoAnswer(c, todo));
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
  return ok(c, await todoAnswer(c, todo));
}
