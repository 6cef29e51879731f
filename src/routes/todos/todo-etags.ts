import { z } from "@hono/zod-openapi";
import type { ExpectedVersions } from "../../todos/todo-writes";

// A todo's ETag is strong and names its id and version: `"todo-<id>-v<version>"`.
const TAG = /^"todo-([1-9][0-9]{0,15})-v([1-9][0-9]{0,15})"$/;
// An If-Match lists a few tags at most; more are ignored (bounded work on hostile headers).
const MAX_TAGS = 20;

export function todoEtag(todo: { id: number; version: number }): string {
  return `"todo-${todo.id}-v${todo.version}"`;
}

/**
 * The versions an `If-Match` accepts for todo `id` (RFC 9110 §13.1.1, strong comparison): undefined
 * without the header or with `*` (any current version), else the versions its tags name for this id;
 * none (a weak, foreign or malformed tag) means no version can match, so the write is refused (412).
 */
export function ifMatchVersions(header: string | undefined, id: number): ExpectedVersions | undefined {
  if (header === undefined || header.trim() === "*") return undefined;
  const versions = new Set<number>();
  for (const tag of header.split(",", MAX_TAGS)) {
    const match = TAG.exec(tag.trim());
    if (match && Number(match[1]) === id) versions.add(Number(match[2]));
  }
  return [...versions];
}

export const IfNoneMatchHeaders = z.object({
  "if-none-match": z.string().optional().openapi({
    description:
      "The todo's `ETag` from an earlier read (`*` and weak `W/` tags are accepted): 304 when it still matches.",
    example: '"todo-12-v3"',
  }),
});

export const IfMatchHeaders = z.object({
  "if-match": z
    .string()
    .optional()
    .openapi({
      description:
        "The `ETag` of the todo as you read it (or `*`): if the todo has changed since, nothing is written and " +
        "the answer is 412 with the current `ETag`. Without it the write applies to whatever version is current.",
      example: '"todo-12-v3"',
    }),
});

/** The `ETag` response header as the todo routes document it. */
export const ETAG_HEADER = {
  ETag: {
    description:
      'The todo\'s strong ETag, `"todo-<id>-v<version>"`: send it as `If-Match` or `If-None-Match`.',
    schema: { type: "string" as const },
  },
};
