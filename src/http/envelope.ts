import { z } from "@hono/zod-openapi";
import type { Context } from "hono";

/** 200 `{ success: true, data }`. */
export function ok<T>(c: Context, data: T) {
  return c.json({ success: true as const, data }, 200);
}

/** 201 `{ success: true, data }`. */
export function created<T>(c: Context, data: T) {
  return c.json({ success: true as const, data }, 201);
}

/** 202 `{ success: true, data }`: accepted, the work goes on after the answer. */
export function accepted<T>(c: Context, data: T) {
  return c.json({ success: true as const, data }, 202);
}

export function successSchema<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const IssueSchema = z
  .object({
    path: z.array(z.union([z.string(), z.number()])),
    message: z.string(),
    code: z.string().optional(),
  })
  .openapi("ValidationIssue");

export const ErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      message: z.string().openapi({ example: "Not found" }),
      issues: z.array(IssueSchema).optional(),
    }),
  })
  .openapi("Error");
