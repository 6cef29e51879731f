import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { NOW, todoAttachmentsTable } from "../db/schema";
import type { AttachmentFile } from "./attachments";

export type AttachmentRow = typeof todoAttachmentsTable.$inferSelect;

const ATTACHMENT_ROWS_PER_STATEMENT = 10;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function listAttachments(db: Db, todoId: number): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(todoAttachmentsTable)
    .where(eq(todoAttachmentsTable.todoId, todoId))
    .orderBy(todoAttachmentsTable.id);
}

/**
 * Attachment rows for the todo `todoId` selects, in statements of at most 10 rows (5 bound
 * values a row): D1 allows 100 bound parameters per statement. No row is written when `todoId`
 * selects nothing.
 */
export function insertAttachments(db: Db, todoId: SQL, files: readonly AttachmentFile[]) {
  return chunks(files, ATTACHMENT_ROWS_PER_STATEMENT).map((rows) => {
    const values = sql.join(
      rows.map((f) => sql`(${f.fileKey}, ${f.filePath}, ${f.fileSize}, ${f.fileHash}, ${f.fileName})`),
      sql`, `,
    );
    // Drizzle lists every column of the table for INSERT ... SELECT, in declaration order.
    return db.insert(todoAttachmentsTable).select(
      sql`SELECT NULL, t.id, v.column1, v.column2, v.column3, v.column4, v.column5, ${NOW}, ${NOW}
        FROM (${todoId}) AS t, (VALUES ${values}) AS v`,
    );
  });
}
