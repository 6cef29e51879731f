import { z } from "./openapi-zod";
import { base64url, fromBase64url } from "./base64url";

/** A path id named `name`: a positive safe integer written as plain digits (`1e3`, `-1`, `0`, `1.5` are 400). */
export function idParam(name: string) {
  return z
    .string()
    .regex(/^[1-9][0-9]*$/, "Must be a positive integer")
    .transform(Number)
    .refine(Number.isSafeInteger, "Must be a safe integer")
    .openapi({
      param: { name, in: "path" },
      type: "integer",
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      example: 1,
    });
}

export const IdParams = z.object({ id: idParam("id") });

export const MAX_PAGE_SIZE = 100;

/** Rows a page holds: 1 to MAX_PAGE_SIZE, 20 when omitted. */
function pageSizeParam(name: string) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(20)
    .openapi({ param: { name, in: "query" }, example: 20 });
}

/** `?page=1&pageSize=20`: 1-based; a page past the end is an empty list. */
export const PageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000_000)
    .default(1)
    .openapi({ param: { name: "page", in: "query" }, example: 1 }),
  pageSize: pageSizeParam("pageSize"),
});

export type PageParams = z.infer<typeof PageQuery>;

/** `{ items, page, pageSize, total, totalPages }` for any item schema. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });
}

export function pageOf<T>(items: T[], total: number, { page, pageSize }: PageParams) {
  return { items, page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}

export function pageOffset({ page, pageSize }: PageParams): number {
  return (page - 1) * pageSize;
}

const encoder = new TextEncoder();

/**
 * An opaque cursor for a row id (clients pass it back, they do not build it). `tag` tells one kind
 * of cursor from another: a file list's (`k`) is no todo sync cursor (`s`).
 */
export function encodeCursor(id: number, tag = "k"): string {
  return base64url(encoder.encode(`${tag}${id}`));
}

/** What every cursor encodeCursor() makes looks like (its tag and id in base64url). */
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{2,24}$/;

/** The row id of a cursor encodeCursor() made with `tag`, or null: anything else is refused, not guessed at. */
export function decodeCursor(cursor: string, tag = "k"): number | null {
  if (!CURSOR_PATTERN.test(cursor)) return null;
  let text: string;
  try {
    text = new TextDecoder().decode(fromBase64url(cursor));
  } catch {
    return null;
  }
  const match = /^([a-z])([1-9][0-9]{0,15})$/.exec(text);
  const id = match?.[1] === tag ? Number(match[2]) : Number.NaN;
  return Number.isSafeInteger(id) && encodeCursor(id, tag) === cursor ? id : null;
}

/**
 * An optional query parameter holding an opaque cursor: `parse` turns it into a position, and what it
 * refuses (null) is a 400 with `message` (which the description states), never guessed at. `pattern`
 * is what every cursor of this kind looks like, as the document states it.
 */
export function cursorParam<T>(
  name: string,
  parse: (value: string) => T | null,
  message: string,
  doc: { description: string; example?: string },
  pattern = CURSOR_PATTERN,
) {
  return z
    .string()
    .regex(pattern, message)
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const position = parse(value);
      if (position === null) ctx.addIssue({ code: "custom", message });
      return position ?? undefined;
    })
    .openapi({
      param: { name, in: "query" },
      type: "string",
      pattern: pattern.source,
      ...doc,
      description: `${doc.description} Opaque: any value this server did not give is 400 "${message}".`,
    });
}

/** `?cursor=&limit=`: keyset paging, so rows added meanwhile never shift a page (no skips, no repeats). */
export const CursorQuery = z.object({
  cursor: cursorParam(
    "cursor",
    (value) => decodeCursor(value),
    "Invalid cursor: pass a nextCursor as given",
    {
      description: "The `nextCursor` of the previous page; omitted for the first page.",
    },
  ),
  limit: pageSizeParam("limit"),
});
