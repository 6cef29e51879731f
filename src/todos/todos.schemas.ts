import { z } from "@hono/zod-openapi";
import { todoAttachmentsTable, todosTable } from "../db/schema";
import { createInsertSchema, createSelectSchema } from "../db/zod";
import { MAX_ATTACHMENTS } from "./attachments";
import { MAX_KEY_BYTES, utf8Length } from "../files/file-keys";
import { IdParams, idParam, PageQuery, pageSchema } from "../core/paging";
import { INVALID_SYNC_CURSOR, SYNC_CURSOR_PATTERN } from "./sync-cursors";
import { SYNC_HORIZON_DAYS } from "./todo-sync";
import { orgIdField, orgIdQuery } from "../orgs/org-id-field";

// NUL and other control characters (tab and newlines aside) cannot round-trip: refused. So are lone
// surrogates, which JSON can carry only as escapes (no JSON Schema pattern can name them).
const CONTROL_FREE = "[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*";
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE = "Control characters and lone surrogates are not allowed";

function text(max: number, pattern = `^${CONTROL_FREE}$`) {
  return z
    .string()
    .max(max)
    .regex(new RegExp(`^${CONTROL_FREE}$`), UNSAFE)
    .refine((value) => !LONE_SURROGATE.test(value), UNSAFE)
    .openapi({ pattern });
}

/** Not blank, and free of control characters: the document's one pattern says both. */
export const TitleSchema = text(200, `^(?=[\\s\\S]*\\S)${CONTROL_FREE}$`)
  .min(1)
  .refine((value) => value.trim().length > 0, "Must not be blank")
  .openapi({ example: "Send the quarterly report" });
export const DescriptionSchema = text(10_000).openapi({ example: "Attach the PDF from the upload." });
/** toISOString() writes years outside 0000-9999 as `+010000-…`/`-000001-…`, which this schema refuses. */
const inFourDigitYearUtc = (value: string) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 0 && year <= 9999;
};

export const ScheduleAtSchema = z.iso
  .datetime({ offset: true })
  .refine(inFourDigitYearUtc, "Must fall in the years 0000 to 9999 once converted to UTC")
  .transform((value) => new Date(value).toISOString())
  .openapi({
    description: "ISO 8601 date-time, years 0000 to 9999 in UTC; stored in UTC. `null` clears it.",
    example: "2026-12-01T09:00:00Z",
  });

export const AttachmentInputSchema = z
  .object({
    fileKey: z
      .string()
      .min(1)
      .refine((key) => utf8Length(key) <= MAX_KEY_BYTES, `At most ${MAX_KEY_BYTES} UTF-8 bytes`)
      .openapi({
        description: "`data.key` of an upload",
        example: "reports/3f0c2a9e-8d7b-4c1e-9a55-6b2f7d1e0c44-q3.pdf",
      }),
  })
  .strict()
  .openapi("AttachmentInput");

const AttachmentsInput = z
  .array(AttachmentInputSchema)
  .max(MAX_ATTACHMENTS)
  .openapi({
    description:
      `At most ${MAX_ATTACHMENTS}. Duplicates count once; keys without a stored object are dropped. ` +
      "Any user's key may be attached: the unguessable key is the capability.",
  });

export const AttachmentSchema = createSelectSchema(todoAttachmentsTable).openapi("TodoAttachment");

/** A user as a todo names its author: their id and the username a client shows. */
export const TodoAuthorSchema = z
  .object({ id: z.number().int(), username: z.string() })
  .openapi("TodoAuthor");
// A union, not .nullable(): see TodoChangeSchema's todo.
const authorOrNull = (description: string) => z.union([TodoAuthorSchema, z.null()]).openapi({ description });

export const TodoSchema = createSelectSchema(todosTable)
  .extend({
    userId: z.union([z.number().int(), z.null()]).openapi({
      description: "The owner of a personal todo; null for a team's (see `orgId`)",
    }),
    orgId: z.union([z.number().int(), z.null()]).openapi({
      description: "The team the todo belongs to; null for your own",
    }),
    createdBy: z.union([z.number().int(), z.null()]).openapi({
      description: "Who created it (a user id); null once their account is deleted",
    }),
    updatedBy: z.union([z.number().int(), z.null()]).openapi({
      description: "Who changed it last (a user id); null once their account is deleted",
    }),
    createdByUser: authorOrNull("Who created it, to show; null once their account is deleted"),
    updatedByUser: authorOrNull("Who changed it last, to show; null once their account is deleted"),
  })
  .openapi("PageTodoVo");

export const TodoWithAttachmentsSchema = TodoSchema.extend({
  attachments: z.array(AttachmentSchema),
}).openapi("TodoVo");

export const TodoPageSchema = pageSchema(TodoSchema).openapi("TodoPage");

/**
 * The fields a client sets, from the table: the refinements replace the column types, and the table
 * decides the rest (description and completed have defaults, so they are optional; scheduleAt is nullable).
 */
const TodoFieldsSchema = createInsertSchema(todosTable, {
  title: () => TitleSchema,
  description: () => DescriptionSchema,
  scheduleAt: () => ScheduleAtSchema,
}).pick({ title: true, description: true, completed: true, scheduleAt: true });

export const CreateTodoBody = TodoFieldsSchema.extend({
  attachments: AttachmentsInput.optional(),
  orgId: orgIdField("The todo is the team's: members and up create it, viewers 403. Omitted: your own todo."),
})
  .strict()
  .openapi("CreateTodoBody");

export const UpdateTodoBody = TodoFieldsSchema.partial()
  .extend({
    attachments: AttachmentsInput.optional().openapi({
      description:
        "Omitted: attachments unchanged. `[]`: all removed. Otherwise replaced by this set. " +
        `At most ${MAX_ATTACHMENTS}; keys without a stored object are dropped.`,
    }),
  })
  .strict()
  .openapi("UpdateTodoBody");

export const TodoPageQuery = PageQuery.extend({
  completed: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional()
    .openapi({
      param: { name: "completed", in: "query" },
      description: "Only done (`true`) or open (`false`) todos",
    }),
});

/** The list's query: a page, or with `updatedSince` the changes after a cursor (delta sync). */
export const TodoListQuery = TodoPageQuery.extend({
  orgId: orgIdQuery(
    "Its todos (any role), paged or synced, with a cursor of their own. Omitted: your own todos only, never a team's.",
  ),
  updatedSince: z
    .string()
    .regex(SYNC_CURSOR_PATTERN, INVALID_SYNC_CURSOR)
    .optional()
    .openapi({
      param: { name: "updatedSince", in: "query" },
      description:
        "Delta sync: `0` (from the start of the log) or the `cursor` of an earlier delta answer. The answer is " +
        "then `TodoChanges` (each write after the cursor, once, deletions as tombstones), not a page; " +
        `\`pageSize\` bounds it, \`page\` and \`completed\` do not apply. A cursor older than ${SYNC_HORIZON_DAYS} days ` +
        "answers 410: list in full, then sync from the `X-Todos-Cursor` of that answer. Cursors are opaque and " +
        `yours alone: one this server did not give you is 400 "${INVALID_SYNC_CURSOR}".`,
      example: "0",
    }),
});

export const TodoChangeSchema = z
  .object({
    type: z.enum(["todo.created", "todo.updated", "todo.deleted"]),
    id: z.number().int(),
    version: z.number().int(),
    // A union, not .nullable(): with a description, .nullable() of a component became allOf [ref, null], which no null matches.
    todo: z.union([TodoSchema, z.null()]).openapi({
      description:
        "The todo as it stands, when this is its latest change; null for a deletion, or when a later change " +
        "of the same todo follows (in this answer or the next).",
    }),
  })
  .openapi("TodoChange");

export const TodoChangesSchema = z
  .object({
    changes: z.array(TodoChangeSchema),
    cursor: z.string().regex(SYNC_CURSOR_PATTERN).openapi({
      description: "Send as `updatedSince` next time (opaque, and valid for you alone).",
      example: "nH3Qv1xG0eK7m2bWcT9aLzRkYf4sUq8dJp6oXiEhM5tNrVwB",
    }),
    hasMore: z.boolean().openapi({ description: "More changes follow: call again with `cursor` now." }),
  })
  .openapi("TodoChanges");

export const TodoIdParams = IdParams;

export const UserTodosParams = z.object({
  userId: idParam("userId"),
});

export const DeletedTodoSchema = z
  .object({
    id: z.number().int(),
    restorableUntil: z
      .string()
      .openapi({ description: "When its restore window (RESTORE_WINDOW_SECONDS) ends" }),
  })
  .openapi("DeletedTodo");
