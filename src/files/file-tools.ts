// Runs in the chat's Durable Object: the model looks up and reads the files of the chat's owner and their teams.
import { z } from "@hono/zod-openapi";
import { orgOwner, userOwner, type Owner } from "../core/owner";
import { decodeCursor, encodeCursor } from "../core/paging";
import type { Databases } from "../db/databases";
import { ToolError, type TodoTool } from "../core/tools";
import { memberRole, TEAM_NOT_FOUND } from "../orgs/membership";
import { toolOrgId } from "../orgs/org-id-field";
import { can } from "../orgs/org-roles";
import { decodeText, fileOf, isTextLike, readHead, TEXT_INLINE_BYTES } from "./file-content";
import { listFilesOf, type FileRow } from "./file-records.queries";
import { downloadPath } from "./file-urls";
import { asUntrustedData } from "./untrusted-text";

const LIST_LIMIT = 50;

// As the todo tools: a team's files, read with the user's role there (every role reads).
const InTeam = z.object({
  orgId: toolOrgId("that team's files"),
});
const ListInput = InTeam.extend({
  nameContains: z.string().trim().min(1).max(200).optional().describe("Only files whose name contains this"),
  limit: z.number().int().min(1).max(LIST_LIMIT).default(20).describe("Files a page holds"),
  cursor: z.string().max(64).optional().describe("The `nextCursor` of the previous page"),
});
const ReadInput = InTeam.extend({
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

/**
 * listFiles and readFile over the files of `userId` (bound here, never an argument), or of a team of
 * theirs (orgId; a non-member is told "Team not found", as REST's 404). Both only read.
 */
export function createFileTools(dbs: Databases, bucket: R2Bucket, userId: number): Record<string, TodoTool> {
  async function ownerOf(orgId: number | undefined): Promise<Owner> {
    if (orgId === undefined) return userOwner(userId);
    const role = await memberRole(dbs.directory, orgId, userId);
    if (!role || !can(role, "data:read")) throw new ToolError(TEAM_NOT_FOUND);
    return orgOwner(orgId);
  }

  const listFiles: TodoTool<typeof ListInput> = {
    description:
      "List the user's files (uploads), or a team's (orgId), newest first, one page at a time; optionally only names containing some text.",
    inputSchema: ListInput,
    writes: false,
    async execute({ nameContains, limit, cursor, orgId }) {
      const before = cursor === undefined ? undefined : decodeCursor(cursor);
      if (before === null) throw new ToolError("Invalid cursor: pass a nextCursor as given");
      const owner = await ownerOf(orgId);
      const rows = await listFilesOf(await dbs.of(owner), owner, before, limit, nameContains);
      const page = rows.slice(0, limit);
      return {
        items: page.map(view),
        nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
      };
    },
  };
  const readFile: TodoTool<typeof ReadInput> = {
    description: `Read one text file (text, Markdown, CSV, JSON...) of the user's, or of a team's (orgId), by key: its first ${TEXT_INLINE_BYTES} bytes.`,
    inputSchema: ReadInput,
    writes: false,
    async execute({ key, orgId }) {
      const owner = await ownerOf(orgId);
      const file = await fileOf(await dbs.of(owner), owner, key);
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
