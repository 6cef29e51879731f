import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW, ownerId } from "./schema";

/** Short notes, each one user's: the resource docs/tutorial.md builds. */
export const notesTable = sqliteTable(
  "notes_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    // No foreign key: the user is in the directory, the note in their data database (erased with it).
    userId: ownerId(),
    text: text().notNull(),
    createdAt: text().notNull().default(NOW),
  },
  (t) => [index("notes_user_id_idx").on(t.userId, t.id)],
);
