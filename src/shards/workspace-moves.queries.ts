import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { NOW } from "../db/now";
import { workspacesTable } from "../db/workspaces-schema";

// The directory's side of a move: each change of `shard` or `state` bumps `version`, so a route cached
// at the old version is read again (src/db/databases.ts).

export type WorkspaceRow = typeof workspacesTable.$inferSelect;

export async function findWorkspace(db: Db, id: number): Promise<WorkspaceRow | null> {
  const [row] = await db.select().from(workspacesTable).where(eq(workspacesTable.id, id));
  return row ?? null;
}

const bump = { version: sql`${workspacesTable.version} + 1`, updatedAt: NOW };

/** Marks a ready workspace as moving to `target`; false when it is moving already or there already. */
export async function claimMove(db: Db, id: number, target: string): Promise<boolean> {
  const rows = await db
    .update(workspacesTable)
    .set({ state: "moving", targetShard: target, ...bump })
    .where(
      and(eq(workspacesTable.id, id), eq(workspacesTable.state, "ready"), ne(workspacesTable.shard, target)),
    )
    .returning({ id: workspacesTable.id });
  return rows.length === 1;
}

/** Points the workspace at its target: from now on every request resolves the target. */
export async function switchShard(db: Db, id: number, source: string, target: string): Promise<boolean> {
  const rows = await db
    .update(workspacesTable)
    .set({ shard: target, state: "ready", targetShard: null, ...bump })
    .where(
      and(
        eq(workspacesTable.id, id),
        eq(workspacesTable.state, "moving"),
        eq(workspacesTable.shard, source),
        eq(workspacesTable.targetShard, target),
      ),
    )
    .returning({ id: workspacesTable.id });
  return rows.length === 1;
}

/** Gives up a move before its switch: the workspace stays ready where it was. */
export async function releaseMove(db: Db, id: number, target: string): Promise<void> {
  await db
    .update(workspacesTable)
    .set({ state: "ready", targetShard: null, ...bump })
    .where(
      and(
        eq(workspacesTable.id, id),
        eq(workspacesTable.state, "moving"),
        eq(workspacesTable.targetShard, target),
      ),
    );
}
