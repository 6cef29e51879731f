// The one `orgId` field of every route and tool that acts on a team's data instead of the caller's own.
import { z } from "@hono/zod-openapi";

const ORG_ID = "A team you belong to (`GET /api/orgs` lists yours; anyone else's is 404 `Team not found`).";

/** The field's description for the document: what every `orgId` means, then what it does on this route. */
export const orgIdDescription = (detail: string) => `${ORG_ID} ${detail}`;

// A team's id: what every form of the field checks.
const teamId = () => z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** `orgId` in a JSON body: a team's id; omitted, the caller's own data. */
export const orgIdField = (detail: string) =>
  teamId()
    .optional()
    .openapi({ description: orgIdDescription(detail), example: 7 });

/** `?orgId=`: the same, as a query parameter. */
export const orgIdQuery = (detail: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "Must be a positive integer")
    .transform(Number)
    .refine(Number.isSafeInteger, "Must be a safe integer")
    .optional()
    .openapi({
      param: { name: "orgId", in: "query" },
      type: "integer",
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: orgIdDescription(detail),
      example: 7,
    });

/** A tool's `orgId` (the chat's and /mcp's), described for the model, which finds the ids with listTeams. */
export const toolOrgId = (what: string) =>
  teamId().optional().describe(`A team's id (listTeams): ${what}; omit for the user's own`);
