import { z } from "@hono/zod-openapi";
import { WORKSPACE_STATES } from "../../db/workspaces-schema";
import { MOVE_PHASES } from "../../shards/move-plan";

const positiveId = (name: string, description: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]*$/, "Must be a positive integer")
    .transform(Number)
    .refine(Number.isSafeInteger, "Must be a safe integer")
    .optional()
    .openapi({ param: { name, in: "query" }, type: "integer", minimum: 1, description, example: 1 });

export const WorkspaceQuery = z
  .object({
    userId: positiveId("userId", "The user whose personal workspace to find."),
    orgId: positiveId("orgId", "The team whose workspace to find."),
  })
  .refine(
    (q) => (q.userId === undefined) !== (q.orgId === undefined),
    "Give exactly one of userId and orgId",
  );

export const MoveBody = z
  .object({
    shard: z.string().min(1).max(64).openapi({
      description: "The data database to move to: a bound `DB_SHARD_<n>`.",
      example: "DB_SHARD_1",
    }),
  })
  .strict()
  .openapi("WorkspaceMoveRequest");

const TableSum = z.object({ rows: z.number().int(), checksum: z.string() });

export const MoveProgressSchema = z
  .object({
    phase: z.enum(MOVE_PHASES),
    source: z.string(),
    target: z.string(),
    written: z.number().int().openapi({ description: "Rows written on the target so far (all passes)." }),
    deleted: z
      .number()
      .int()
      .openapi({ description: "Rows deleted on the target by the copy (removed on the source meanwhile)." }),
    attempts: z
      .number()
      .int()
      .openapi({ description: "Failed attempts of the current step (retried with backoff)." }),
    lastError: z.string().nullable(),
    failure: z
      .string()
      .nullable()
      .openapi({ description: "Why the move was rolled back; null unless it failed." }),
    startedAt: z.string(),
    fencedAt: z.string().nullable(),
    switchedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    fenceMs: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "How long writes to the workspace were answered 503 (fence to switch)." }),
    checks: z.array(z.object({ table: z.string(), source: TableSum, target: TableSum })),
  })
  .openapi("WorkspaceMove");

export const WorkspaceSchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int().nullable(),
    orgId: z.number().int().nullable(),
    shard: z.string(),
    state: z.enum(WORKSPACE_STATES),
    targetShard: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    move: MoveProgressSchema.nullable().openapi({
      description: "The current or last move; null if never moved.",
    }),
  })
  .openapi("Workspace");

export const WorkspaceListSchema = z.object({ items: z.array(WorkspaceSchema) }).openapi("WorkspaceList");

export const ShardSchema = z
  .object({
    shard: z.string(),
    workspaces: z.number().int(),
    moving: z.number().int().openapi({ description: "Workspaces moving out of this shard now." }),
    todos: z.number().int(),
    files: z.number().int(),
  })
  .openapi("Shard");

export const ShardListSchema = z.object({ items: z.array(ShardSchema) }).openapi("ShardList");

export type MoveProgress = z.infer<typeof MoveProgressSchema>;
