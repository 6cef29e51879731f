import type { z } from "@hono/zod-openapi";
import { ErrorSchema, successSchema } from "./envelope";

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

/** A success response in the envelope: `{ success: true, data }`. */
export function okContent<T extends z.ZodType>(schema: T, description: string) {
  return jsonContent(successSchema(schema), description);
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { content: { "application/json": { schema } }, required: true };
}

const ERROR_DESCRIPTIONS = {
  400: "Invalid input",
  401: "Missing or invalid bearer token",
  403: "Not allowed for this user",
  404: "Not found",
  409: "Conflicts with an existing resource, or a request with this Idempotency-Key is still in progress",
  410: "Gone (expired)",
  411: "Content-Length required",
  412: "If-Match names a version the resource no longer has: nothing was written",
  413: "Payload too large",
  416: "Range not satisfiable",
  422: "This Idempotency-Key was used with another request",
  429: "Too many requests",
  500: "Internal server error",
  503: "Service unavailable",
  504: "Upstream timed out",
} as const;

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** The envelope error responses of a route, by status. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, jsonContent(ErrorSchema, ERROR_DESCRIPTIONS[status])]),
  ) as { [K in S]: ReturnType<typeof jsonContent<typeof ErrorSchema>> };
}

/** Marks an operation as public: in the document (no bearer requirement) and at the /api gate, which lets its path through. */
export const PUBLIC: { security: [] } = { security: [] };
