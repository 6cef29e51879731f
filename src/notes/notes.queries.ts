import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { notesTable } from "../db/notes-schema";

/** What a client sees of a note: never the owner column. */
const view = { id: notesTable.id, text: notesTable.text, createdAt: notesTable.createdAt };

export async function countNotesForUser(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notesTable).where(eq(notesTable.userId, userId));
  return row?.n ?? 0;
}

export async function insertNote(db: Db, userId: number, text: string) {
  const [note] = await db.insert(notesTable).values({ userId, text }).returning(view);
  return note!;
}

/** The user's notes, newest first. */
export function listNotesForUser(db: Db, userId: number, limit: number) {
  return db
    .select(view)
    .from(notesTable)
    .where(eq(notesTable.userId, userId))
    .orderBy(desc(notesTable.id))
    .limit(limit);
}

/** The deleted note's id, or null when the user has no such note (another user's note included). */
export async function deleteNoteForUser(db: Db, userId: number, id: number) {
  const [row] = await db
    .delete(notesTable)
    .where(and(eq(notesTable.id, id), eq(notesTable.userId, userId)))
    .returning({ id: notesTable.id });
  return row ?? null;
}
