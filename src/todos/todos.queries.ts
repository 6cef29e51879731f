import { and, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { queryBuilder, prebuiltSelect } from "../db/prebuilt";
import { NOW, todoAttachmentsTable, todoCountsTable, todosTable } from "../db/schema";
import type { AttachmentFile } from "./attachments";
import { insertAttachments, listAttachments, type AttachmentRow } from "./attachments.queries";

export type TodoRow = typeof todosTable.$inferSelect;

/** The columns a client may set (see CreateTodoBody); the rest are the server's. */
export type TodoFields = Partial<
  Pick<typeof todosTable.$inferInsert, "title" | "description" | "completed" | "scheduleAt">
>;

/** completedAt follows completed: set when it turns true (kept if already done), cleared when false. */
function completedAtFor(completed: boolean): SQL {
  return completed ? sql`coalesce(${todosTable.completedAt}, ${NOW})` : sql`NULL`;
}

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
function likePattern(text: string): string {
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

/**
 * The todo and its attachment rows in one batch (one transaction), so a failure leaves no todo
 * without its attachments. The rows find the new todo as the user's highest id: D1 runs a batch
 * alone, so no other insert can come between.
 */
export async function insertTodoWithAttachments(
  db: Db,
  todo: TodoFields & { userId: number; title: string },
  files: readonly AttachmentFile[],
): Promise<{ todo: TodoRow; attachments: AttachmentRow[] }> {
  const newTodoId = sql`SELECT max(id) AS id FROM ${todosTable} WHERE userId = ${todo.userId}`;
  const insertTodo = db
    .insert(todosTable)
    .values({ ...todo, completedAt: todo.completed ? NOW : null })
    .returning();
  const [[inserted]] = await db.batch([insertTodo, ...insertAttachments(db, newTodoId, files)]);
  if (!inserted) throw new Error("todo insert returned no row");
  return { todo: inserted, attachments: files.length ? await listAttachments(db, inserted.id) : [] };
}

/**
 * One ordered batch: update the todo, then (when `files` is given) delete the old
 * attachment rows and insert the new ones. D1 runs it as one transaction: if any statement
 * fails, the todo and its previous attachments stay as they were. Every statement repeats the
 * owner check, so a foreign id changes nothing.
 */
export async function updateTodoWithAttachments(
  db: Db,
  id: number,
  userId: number,
  fields: TodoFields,
  files: readonly AttachmentFile[] | undefined,
): Promise<TodoRow | null> {
  const { completed, ...rest } = fields;
  const owned = and(eq(todosTable.id, id), eq(todosTable.userId, userId));
  const update = db
    .update(todosTable)
    .set({
      ...rest,
      ...(completed === undefined ? {} : { completed, completedAt: completedAtFor(completed) }),
      updatedAt: NOW,
    })
    .where(owned)
    .returning();
  const ownedTodo = db.select({ id: todosTable.id }).from(todosTable).where(owned);
  const replace: BatchItem<"sqlite">[] =
    files === undefined
      ? []
      : [
          db.delete(todoAttachmentsTable).where(inArray(todoAttachmentsTable.todoId, ownedTodo)),
          ...insertAttachments(db, sql`${ownedTodo}`, files),
        ];
  const [[row]] = await db.batch([update, ...replace]);
  return row ?? null;
}

/** Deletes a user's todo; its attachment rows go by cascade. Returns the id, or null if none. */
export async function deleteTodoForUser(db: Db, id: number, userId: number): Promise<number | null> {
  const [row] = await db
    .delete(todosTable)
    .where(and(eq(todosTable.id, id), eq(todosTable.userId, userId)))
    .returning({ id: todosTable.id });
  return row?.id ?? null;
}
