import { inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { usersTable } from "../db/schema";

/** A todo's author as answers name them: who to show for createdBy and updatedBy. */
export interface TodoAuthor {
  id: number;
  username: string;
}

type Authored = { createdBy: number | null; updatedBy: number | null };
export type WithAuthors<T extends Authored> = T & {
  createdByUser: TodoAuthor | null;
  updatedByUser: TodoAuthor | null;
};

// D1 binds at most 100 parameters to a statement; a page of 100 todos names at most 200 authors.
const LOOKUP_CHUNK = 100;

/**
 * The todos with their authors' usernames. The reader is known already: a user's own todos (every
 * author is them) cost no read; a team's, one read per 100 other authors.
 */
export async function withAuthors<T extends Authored>(
  db: Db,
  reader: TodoAuthor,
  todos: readonly T[],
): Promise<WithAuthors<T>[]> {
  const names = new Map<number, string>([[reader.id, reader.username]]);
  const others = new Set<number>();
  for (const todo of todos) {
    for (const id of [todo.createdBy, todo.updatedBy]) if (id !== null && !names.has(id)) others.add(id);
  }
  const ids = [...others];
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ id: usersTable.id, username: usersTable.username })
      .from(usersTable)
      .where(inArray(usersTable.id, ids.slice(i, i + LOOKUP_CHUNK)));
    for (const row of rows) names.set(row.id, row.username);
  }
  const author = (id: number | null): TodoAuthor | null => {
    const username = id === null ? undefined : names.get(id);
    return username === undefined ? null : { id: id!, username };
  };
  return todos.map((todo) => ({
    ...todo,
    createdByUser: author(todo.createdBy),
    updatedByUser: author(todo.updatedBy),
  }));
}

/** withAuthors() of one todo. */
export async function withAuthorsOf<T extends Authored>(db: Db, reader: TodoAuthor, todo: T) {
  const [one] = await withAuthors(db, reader, [todo]);
  return one!;
}
