import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { queryBuilder, prebuiltSelect } from "../db/prebuilt";
import { todoCountsTable, todosTable } from "../db/schema";

export type TodoRow = typeof todosTable.$inferSelect;

/** The columns a client may set (see CreateTodoBody); the rest are the server's. */
export type TodoFields = Partial<
  Pick<typeof todosTable.$inferInsert, "title" | "description" | "completed" | "scheduleAt">
>;

/** The page statement, with or without the `completed` filter; both rendered once per isolate. */
function pageOfTodos(byCompleted: boolean) {
  const owner = and(
    eq(todosTable.userId, sql.placeholder("userId")),
    byCompleted ? eq(todosTable.completed, sql.placeholder("completed")) : undefined,
  );
  // The page's ids come from the (userId[, completed], id) index alone, so a deep OFFSET skips
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
const todosPage = pageOfTodos(false);
const todosPageByCompleted = pageOfTodos(true);
const todoCounts = prebuiltSelect(
  todoCountsTable,
  queryBuilder
    .select()
    .from(todoCountsTable)
    .where(eq(todoCountsTable.userId, sql.placeholder("userId"))),
);

/**
 * One page of a user's todos, newest first (id descending, so the order is stable), and the total
 * from the user's row of todo counts: one round trip, whose total reads one row at any number of todos.
 */
export async function listTodosForUser(
  db: Db,
  userId: number,
  { completed, offset, limit }: { completed?: boolean; offset: number; limit: number },
): Promise<{ items: TodoRow[]; total: number }> {
  const d1 = db.$client;
  const page = completed === undefined ? todosPage : todosPageByCompleted;
  const [pageResult, countsResult] = await d1.batch<Record<string, unknown>>([
    page.bind(d1, { userId, completed, limit, offset }),
    todoCounts.bind(d1, { userId }),
  ]);
  const counts = todoCounts.rows(countsResult!)[0] ?? { total: 0, completed: 0 };
  const total =
    completed === undefined ? counts.total : completed ? counts.completed : counts.total - counts.completed;
  return { items: page.rows(pageResult!), total };
}

/** LIKE wildcards in user text match themselves (ESCAPE '\\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A user's todos whose title or description contains `text` (case-insensitive for ASCII), newest first. */
export function searchTodosForUser(db: Db, userId: number, text: string, limit: number): Promise<TodoRow[]> {
  const pattern = likePattern(text);
  return db
    .select()
    .from(todosTable)
    .where(
      and(
        eq(todosTable.userId, userId),
        or(
          sql`${todosTable.title} LIKE ${pattern} ESCAPE '\\'`,
          sql`${todosTable.description} LIKE ${pattern} ESCAPE '\\'`,
        ),
      ),
    )
    .orderBy(desc(todosTable.id))
    .limit(limit);
}

export async function findTodoForUser(db: Db, id: number, userId: number): Promise<TodoRow | null> {
  const [row] = await db
    .select()
    .from(todosTable)
    .where(and(eq(todosTable.id, id), eq(todosTable.userId, userId)))
    .limit(1);
  return row ?? null;
}
