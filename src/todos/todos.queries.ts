import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { likePattern } from "../db/like-pattern";
import { queryBuilder, prebuiltSelect } from "../db/prebuilt";
import { orgTodoCountsTable, todoCountsTable, todosTable } from "../db/schema";
import { copiedRoleReads } from "../orgs/team-role-copies.queries";
import { reachable, type TodoAction, type TodoReach } from "./todo-reach";

export type TodoRow = typeof todosTable.$inferSelect;

/** The columns a client may set (see CreateTodoBody); the rest are the server's. */
export type TodoFields = Partial<
  Pick<typeof todosTable.$inferInsert, "title" | "description" | "completed" | "scheduleAt">
>;

/** The page statement of a user's or a team's todos, with or without the `completed` filter; each rendered once per isolate. */
function pageOfTodos(kind: Owner["kind"], byCompleted: boolean) {
  const owner = and(
    eq(kind === "user" ? todosTable.userId : todosTable.orgId, sql.placeholder("ownerId")),
    byCompleted ? eq(todosTable.completed, sql.placeholder("completed")) : undefined,
  );
  // The page's ids come from the (userId|orgId[, completed], id) index alone, so a deep OFFSET skips
  // index entries, not rows.
  const pageIds = queryBuilder
    .select({ id: todosTable.id })
    .from(todosTable)
    .where(owner)
    .orderBy(desc(todosTable.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
  return prebuiltSelect(
    todosTable,
    queryBuilder
      .select()
      .from(todosTable)
      .where(inArray(todosTable.id, pageIds))
      .orderBy(desc(todosTable.id)),
  );
}
const pages = {
  user: { all: pageOfTodos("user", false), byCompleted: pageOfTodos("user", true) },
  org: { all: pageOfTodos("org", false), byCompleted: pageOfTodos("org", true) },
};
const counts = {
  user: prebuiltSelect(
    todoCountsTable,
    queryBuilder
      .select()
      .from(todoCountsTable)
      .where(eq(todoCountsTable.userId, sql.placeholder("ownerId"))),
  ),
  org: prebuiltSelect(
    orgTodoCountsTable,
    queryBuilder
      .select()
      .from(orgTodoCountsTable)
      .where(eq(orgTodoCountsTable.orgId, sql.placeholder("ownerId"))),
  ),
};

type PageOptions = { completed?: boolean; offset: number; limit: number };
export type TodoPage = { items: TodoRow[]; total: number };

/** A page's two statements for a batch, and how to read their results. */
function pageStatements(d1: Db["$client"], owner: Owner, { completed, offset, limit }: PageOptions) {
  const page = completed === undefined ? pages[owner.kind].all : pages[owner.kind].byCompleted;
  const ownerCounts = counts[owner.kind];
  const ownerId = owner.kind === "user" ? owner.userId : owner.orgId;
  return {
    statements: [page.bind(d1, { ownerId, completed, limit, offset }), ownerCounts.bind(d1, { ownerId })],
    read(
      pageResult: D1Result<Record<string, unknown>>,
      countsResult: D1Result<Record<string, unknown>>,
    ): TodoPage {
      const row = ownerCounts.rows(countsResult)[0] ?? { total: 0, completed: 0 };
      const total =
        completed === undefined ? row.total : completed ? row.completed : row.total - row.completed;
      return { items: page.rows(pageResult), total };
    },
  };
}

/**
 * One page of a user's or a team's todos, newest first (id descending, so the order is stable), and
 * the total from the owner's row of todo counts: one round trip, whose total reads one row at any
 * number of todos.
 */
export async function listTodosOf(db: Db, owner: Owner, options: PageOptions): Promise<TodoPage> {
  const d1 = db.$client;
  const { statements, read } = pageStatements(d1, owner, options);
  const [pageResult, countsResult] = await d1.batch<Record<string, unknown>>(statements);
  return read(pageResult!, countsResult!);
}

/**
 * listTodosOf() of team `orgId` for member `readerId`, whose role is read from this database's copy in the
 * same batch (one round trip, one transaction): null when the copy does not let them read (the caller
 * confirms the role from the directory, src/orgs/team-role-copies.ts), and the page is then dropped unread.
 */
export async function listTeamTodosFor(
  db: Db,
  orgId: number,
  readerId: number,
  options: PageOptions,
): Promise<TodoPage | null> {
  const d1 = db.$client;
  const { statements, read } = pageStatements(d1, { kind: "org", orgId }, options);
  const [allowed, pageResult, countsResult] = await d1.batch<Record<string, unknown>>([
    copiedRoleReads.bind(d1, { orgId, userId: readerId }),
    ...statements,
  ]);
  return allowed!.results.length > 0 ? read(pageResult!, countsResult!) : null;
}

/** The owner's todos whose title or description contains `text` (case-insensitive for ASCII), newest first. */
export function searchTodosOf(db: Db, owner: Owner, text: string, limit: number): Promise<TodoRow[]> {
  const pattern = likePattern(text);
  const ownerColumn =
    owner.kind === "user" ? eq(todosTable.userId, owner.userId) : eq(todosTable.orgId, owner.orgId);
  return db
    .select()
    .from(todosTable)
    .where(
      and(
        ownerColumn,
        or(
          sql`${todosTable.title} LIKE ${pattern} ESCAPE '\\'`,
          sql`${todosTable.description} LIKE ${pattern} ESCAPE '\\'`,
        ),
      ),
    )
    .orderBy(desc(todosTable.id))
    .limit(limit);
}

/** The todo, when `reach` may `action` it (its own, or its team's by role); null otherwise. */
export async function findTodoInReach(
  db: Db,
  id: number,
  reach: TodoReach,
  action: TodoAction,
): Promise<TodoRow | null> {
  const [row] = await db
    .select()
    .from(todosTable)
    .where(and(eq(todosTable.id, id), reachable(reach, action)))
    .limit(1);
  return row ?? null;
}
