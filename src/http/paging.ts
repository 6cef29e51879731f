import { z } from "@hono/zod-openapi";

/** A path id: a positive safe integer written as plain digits (`1e3`, `-1`, `0`, `1.5` are 400). */
export const IdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]*$/, "Must be a positive integer")
    .transform(Number)
    .refine(Number.isSafeInteger, "Must be a safe integer")
    .openapi({ param: { name: "id", in: "path" }, type: "integer", example: 1 }),
});

export const MAX_PAGE_SIZE = 100;

/** `?page=1&pageSize=20`: 1-based; a page past the end is an empty list. */
export const PageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000_000)
    .default(1)
    .openapi({ param: { name: "page", in: "query" }, example: 1 }),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(20)
    .openapi({ param: { name: "pageSize", in: "query" }, example: 20 }),
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
