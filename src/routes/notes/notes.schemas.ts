import { z } from "@hono/zod-openapi";

/** Notes one user may keep: enough to be useful, few enough that a list needs no paging. */
export const MAX_NOTES = 100;

export const NoteSchema = z
  .object({
    id: z.number().int().openapi({ example: 1 }),
    text: z.string().openapi({ example: "Call the bank before Friday" }),
    createdAt: z.string().openapi({ example: "2026-11-28T09:00:00.000Z" }),
  })
  .openapi("Note");

export const NoteListSchema = z.object({ items: z.array(NoteSchema) }).openapi("NoteList");

export const CreateNoteBody = z
  .object({
    // The pattern tells clients what "not blank" means: at least one character other than a space.
    text: z
      .string()
      .trim()
      .min(1, "Must not be blank")
      .max(1000)
      .openapi({ pattern: "\\S", example: "Call the bank" }),
  })
  .strict()
  .openapi("CreateNoteBody");

export const DeletedNoteSchema = z.object({ id: z.number().int() }).openapi("DeletedNote");
