import type { Owner } from "../core/owner";
import { createDb } from "../db/client";
import { copyChunk } from "./chunk-copy";
import { fence, liftFence, pastFence } from "./fences";
import { claimIdBlock } from "./id-blocks";
import { isFinished, type MovePhase, type MovePlan } from "./move-plan";
import { checkPasses, emptyCheck, verifyChunk } from "./move-verify";
import { CLEANUP_ORDER, MOVED_TABLES, type MovedTable } from "./moved-tables";
import { shardBinding } from "./shard-bindings";
import { findWorkspace, releaseMove, switchShard } from "./workspace-moves.queries";
import { deleteSome, ownerWhere, prepare } from "./workspace-sql";

/** Chunks one alarm runs before it hands over to the next: each alarm stays well inside a Worker's limits. */
const CHUNKS_PER_ALARM = 8;
/** Rows one cleanup batch deletes from a table. */
const DELETE_ROWS = 500;

const tablesOf = (owner: Owner, order: readonly MovedTable[] = MOVED_TABLES) =>
  order.filter((t) => ownerWhere(t, owner) !== null);

const now = () => new Date().toISOString();

/** The phase after a pass over every table. */
const AFTER_PASS: Partial<Record<MovePhase, MovePhase>> = { copy: "catchUp", catchUp: "fence", final: "verify" };

const enter = (plan: MovePlan, phase: MovePhase, table = 0): MovePlan => ({ ...plan, phase, table, after: null });

export const rollback = (plan: MovePlan, failure: string): MovePlan => ({ ...enter(plan, "rollback", -1), failure });

interface Sides {
  env: Env;
  source: D1Database;
  target: D1Database;
}

async function step(plan: MovePlan, { env, source, target }: Sides): Promise<MovePlan> {
  const directory = createDb(env.DB);
  const scope = { workspaceId: plan.workspaceId, owner: plan.owner, blockStart: plan.blockStart };
  switch (plan.phase) {
    case "prepare": {
      const row = await findWorkspace(directory, plan.workspaceId);
      if (row?.state !== "moving" || row.shard !== plan.source || row.targetShard !== plan.target) {
        return { ...enter(plan, "failed"), failure: "The directory holds no such move", finishedAt: now() };
      }
      const blockStart = await claimIdBlock(env.DB, target, plan.target);
      return { ...enter(plan, "copy"), blockStart };
    }
    case "copy":
    case "catchUp":
    case "final": {
      const tables = tablesOf(plan.owner);
      const table = tables[plan.table];
      if (!table) return enter(plan, AFTER_PASS[plan.phase] ?? "failed");
      const chunk = await copyChunk(source, target, table, scope, plan.after);
      return {
        ...plan,
        table: chunk.next ? plan.table : plan.table + 1,
        after: chunk.next,
        written: plan.written + chunk.written,
        deleted: plan.deleted + chunk.deleted,
      };
    }
    case "fence":
      await fence(source, plan.workspaceId, plan.owner).run();
      return { ...enter(plan, "final"), fencedAt: now() };
    case "verify": {
      const tables = tablesOf(plan.owner);
      const table = tables[plan.table];
      if (!table) return enter(plan, "switch");
      const checks = plan.checks.slice(0, plan.table);
      const verified = await verifyChunk(source, target, table, plan.owner, plan.after, plan.checks[plan.table] ?? emptyCheck(table.name));
      checks.push(verified.check);
      if (verified.next) return { ...plan, checks, after: verified.next };
      if (!checkPasses(verified.check)) {
        const { source: s, target: t } = verified.check;
        return rollback({ ...plan, checks }, `Verify failed on ${table.name}: ${s.rows} rows on the source, ${t.rows} on the target`);
      }
      return { ...plan, checks, table: plan.table + 1, after: null };
    }
    case "switch": {
      // A fence left on the target by an earlier move out of it goes first: the target serves from now on.
      await liftFence(target, plan.workspaceId).run();
      const switched = await switchShard(directory, plan.workspaceId, plan.source, plan.target);
      const row = switched ? null : await findWorkspace(directory, plan.workspaceId);
      if (!switched && row?.shard !== plan.target) return rollback(plan, "The directory changed during the move");
      return { ...enter(plan, "cleanup"), switchedAt: now() };
    }
    case "cleanup": {
      const table = tablesOf(plan.owner, CLEANUP_ORDER)[plan.table];
      if (!table) return { ...enter(plan, "done"), finishedAt: now() };
      // The source's fence stays up: only this batch gets past it.
      const [, deleted] = await pastFence(source, plan.workspaceId, [prepare(source, deleteSome(table, plan.owner, DELETE_ROWS))]);
      return deleted && deleted.meta.changes >= DELETE_ROWS ? plan : { ...plan, table: plan.table + 1 };
    }
    case "rollback": {
      if (plan.table === -1) {
        const row = await findWorkspace(directory, plan.workspaceId);
        // Switched already (a retried switch): the target holds the workspace now, so finish instead.
        if (row?.shard === plan.target) return { ...enter(plan, "cleanup"), failure: null, switchedAt: plan.switchedAt ?? now() };
        await liftFence(source, plan.workspaceId).run();
        await releaseMove(directory, plan.workspaceId, plan.target);
        return { ...plan, table: 0 };
      }
      const table = tablesOf(plan.owner, CLEANUP_ORDER)[plan.table];
      if (!table) return { ...enter(plan, "failed"), finishedAt: now() };
      const [, deleted] = await pastFence(target, plan.workspaceId, [prepare(target, deleteSome(table, plan.owner, DELETE_ROWS))]);
      return deleted && deleted.meta.changes >= DELETE_ROWS ? plan : { ...plan, table: plan.table + 1 };
    }
    case "done":
    case "failed":
      return plan;
  }
}

/**
 * Runs a move's next chunks, saving the plan after each one, so a crash repeats at most the chunk it
 * was in (every step can run twice: copies compare before they write, deletes find what is left).
 */
export async function advance(env: Env, plan: MovePlan, save: (plan: MovePlan) => Promise<void>): Promise<MovePlan> {
  const source = shardBinding(env, plan.source);
  const target = shardBinding(env, plan.target);
  if (!source || !target) {
    const failed = { ...enter(plan, "failed"), failure: "A shard of this move is no longer bound", finishedAt: now() };
    await save(failed);
    return failed;
  }
  let current = plan;
  for (let n = 0; n < CHUNKS_PER_ALARM && !isFinished(current); n++) {
    current = { ...(await step(current, { env, source, target })), attempts: 0 };
    await save(current);
  }
  return current;
}
