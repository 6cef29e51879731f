import type { Owner } from "../core/owner";

// The fence of a workspace in one data database (src/db/fences-schema.ts): its triggers refuse any write
// to the workspace's rows there, except inside a batch of the mover's that suspends it.

const FENCES = "workspace_fences_table";

export function fence(db: D1Database, workspaceId: number, owner: Owner): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ${FENCES} (workspaceId, userId, orgId, suspended) VALUES (?1, ?2, ?3, 0) ` +
        `ON CONFLICT (workspaceId) DO UPDATE SET suspended = 0, fencedAt = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(
      workspaceId,
      owner.kind === "user" ? owner.userId : null,
      owner.kind === "org" ? owner.orgId : null,
    );
}

export function liftFence(db: D1Database, workspaceId: number): D1PreparedStatement {
  return db.prepare(`DELETE FROM ${FENCES} WHERE workspaceId = ?1`).bind(workspaceId);
}

/**
 * Runs the mover's own writes past the workspace's fence, if it has one here. One batch is one
 * transaction that no other request interleaves with, so nobody else ever sees the fence down.
 */
export function pastFence(db: D1Database, workspaceId: number, writes: D1PreparedStatement[]) {
  const set = (suspended: number) =>
    db.prepare(`UPDATE ${FENCES} SET suspended = ?2 WHERE workspaceId = ?1`).bind(workspaceId, suspended);
  return db.batch([set(1), ...writes, set(0)]);
}
