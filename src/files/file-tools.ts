// Runs in the chat's Durable Object: the model looks up and reads the files of the chat's owner.
import { z } from "@hono/zod-openapi";
import { userOwner } from "../core/owner";
import { decodeCursor, encodeCursor } from "../core/paging";
import type { Db } from "../db/client";
import { ToolError, type TodoTool } from "../todos/todo-tools";
import { decodeText, isTextLike, ownFile, readHead, TEXT_INLINE_BYTES } from "./file-content";
import { listFilesOf, type FileRow } from "./file-records.queries";
import { downloadPath } from "./file-urls";
import { asUntrustedData } from "./untrusted-text";

const LIST_LIMIT = 50;

const ListInput = z.object({
  nameContains: z.string().trim().min(1).max(200).optional().describe("Only files whose name contains this"),
  limit: z.number().int().min(1).max(LIST_LIMIT).default(20).describe("Files a page holds"),
  cursor: z.string().max(64).optional().describe("The `nextCursor` of the previous page"),
});
const ReadInput = z.object({
  key: z.string().min(1).max(1024).describe("The file's `key`, as listFiles gives it"),
});

/** A file as the model sees it: no row id or owner; `url` is what a chat message attaches. */
const view = (file: FileRow) => ({
  key: file.key,
  name: file.originalName,
  contentType: file.contentType,
  size: file.size,
  visibility: file.visibility,
  createdAt: file.createdAt,
  url: downloadPath(file.key),
});

// Anyone else's key reads exactly as a deleted one: nothing says whether it exists.
const notFound = () => new ToolError("File not found");

/** listFiles and readFile over the files of `userId` (bound here, never an argument). Both only read. */
export function createFileTools(db: Db, bucket: R2Bucket, userId: number): Record<string, TodoTool> {
  const listFiles: TodoTool<typeof ListInput> = {
    description:
      "List the user's files (uploads), newest first, one page at a time; optionally only names containing some text.",
    inputSchema: ListInput,
    writes: false,
    async execute({ nameContains, limit, cursor }) {
      const before = cursor === undefined ? undefined : decodeCursor(cursor);
      if (before === null) throw new ToolError("Invalid cursor: pass a nextCursor as given");
      const rows = await listFilesOf(db, userOwner(userId), before, limit, nameContains);
      const page = rows.slice(0, limit);
      return {
        items: page.map(view),
        nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
      };
    },
  };
  const readFile: TodoTool<typeof ReadInput> = {
    description: `Read one of the user's text files (text, Markdown, CSV, JSON...) by key: its first ${TEXT_INLINE_BYTES} bytes.`,
    inputSchema: ReadInput,
    writes: false,
    async execute({ key }) {
      const file = await ownFile(db, userId, key);
      if (!file) throw notFound();
      if (!isTextLike(file.contentType, file.originalName)) {
        throw new ToolError(
          `${file.originalName} is a ${file.contentType} file: readFile reads text files only`,
        );
      }
      const head = await readHead(bucket, file, TEXT_INLINE_BYTES);
      if (!head) throw notFound();
      const text = asUntrustedData(`File ${JSON.stringify(file.originalName)}`, decodeText(head));
      return { ...view(file), text, truncated: head.truncated };
    },
  };
  return { listFiles, readFile } as Record<string, TodoTool>;
}
