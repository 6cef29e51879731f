import { routeSettleMs } from "../core/config";
import type { Owner } from "../core/owner";
import { openDatabases } from "../db/databases";
import { directoryBinding, isShardName, LEGACY_SHARD, shardBinding } from "../db/shard-names";
import { CHUNK_ROWS, copyStep, FENCED_CHUNK_ROWS, passDone, startCursors, type Cursors } from "./chunk-copy";
import { fence, liftFence, pastFence } from "./fences";
import { claimIdBlock } from "./id-blocks";
import { isFinished, nextStepAt, type MovePhase, type MovePlan } from "./move-plan";
import { checkPasses, verifyStep } from "./move-verify";
import { CLEANUP_ORDER, MOVED_TABLES, type MovedTable } from "./moved-tables";
import { findWorkspace, releaseMove, switchShard } from "./workspace-moves.queries";
import { deleteSome, ownerWhere, prepare } from "./workspace-sql";

/**
 * What one alarm runs before it hands over to the next, so each stays well inside a Worker's limits: at
 * most this many steps (each at most a chunk of each table, each side), for at most this long.
 */
const STEPS_PER_ALARM = 64;
const ALARM_BUDGET_MS = 1_000;
/** Rows one delete step removes from each table. */
const DELETE_ROWS = 500;

const tablesOf = (owner: Owner, order: readonly MovedTable[] = MOVED_TABLES) =>
  order.filter((t) => ownerWhere(t, owner) !== null);

const now = () => new Date().toISOString();

/** The phase after a pass over every table. */
const AFTER_PASS: Partial<Record<MovePhase, MovePhase>> = {
  copy: "catchUp",
  catchUp: "fence",
  final: "verify",
};

const enter = (plan: MovePlan, phase: MovePhase): MovePlan => ({
  ...plan,
  phase,
  cursors: startCursors(tablesOf(plan.owner)),
});

/** Gives up before the switch: the fence comes down, the directory stays on the source, the copies go. */
export const rollback = (plan: MovePlan, failure: string): MovePlan => ({
  ...enter(plan, "rollback"),
  cursors: {},
  failure,
});

/**
 * Deletes up to DELETE_ROWS more of the workspace's rows from every table of `db` past its fence, in
 * cleanup order; the cursors mark the tables found empty.
 */
async function deleteStep(db: D1Database, plan: MovePlan): Promise<Cursors> {
  const tables = tablesOf(plan.owner, CLEANUP_ORDER).filter((t) => !plan.cursors[t.name]?.done);
  const results = await pastFence(
    db,
    plan.workspaceId,
    tables.map((t) => prepare(db, deleteSome(t, plan.owner, DELETE_ROWS))),
  );
  const cursors = { ...plan.cursors };
  tables.forEach((t, i) => {
    // A table is done once a delete finds fewer rows than it may take (results[0] is the fence's suspension).
    if ((results[i + 1]?.meta.changes ?? 0) < DELETE_ROWS) cursors[t.name] = { after: null, done: true };
  });
  return cursors;
}

const deletesDone = (plan: MovePlan, cursors: Cursors) =>
  tablesOf(plan.owner, CLEANUP_ORDER).every((t) => cursors[t.name]?.done);

/** After the switch: the source's rows are deleted once no request can still be reading them there. */
const toCleanup = (env: Env, plan: MovePlan): MovePlan => ({
  ...plan,
  phase: "cleanup",
  cursors: {},
  waitUntil: Date.now() + routeSettleMs(env),
});

interface Sides {
  env: Env;
  source: D1Database;
  target: D1Database;
}

async function step(plan: MovePlan, { env, source, target }: Sides): Promise<MovePlan> {
  const directory = openDatabases(env).directory;
  const tables = tablesOf(plan.owner);
  switch (plan.phase) {
    case "prepare": {
      const row = await findWorkspace(directory, plan.workspaceId);
      if (row?.state !== "moving" || row.shard !== plan.source || row.targetShard !== plan.target) {
        return { ...plan, phase: "failed", failure: "The directory holds no such move", finishedAt: now() };
      }
      const blockStart = await claimIdBlock(directoryBinding(env), target, plan.target);
      // The claim is in the directory: from now on no isolate remembers the source as ready.
      return { ...enter(plan, "copy"), blockStart, waitUntil: Date.now() + routeSettleMs(env) };
    }
    case "copy":
    case "catchUp":
    case "final": {
      if (passDone(plan.cursors)) return enter(plan, AFTER_PASS[plan.phase] ?? "failed");
      const chunkRows = plan.phase === "final" ? FENCED_CHUNK_ROWS : CHUNK_ROWS;
      const scope = {
        workspaceId: plan.workspaceId,
        owner: plan.owner,
        blockStart: plan.blockStart,
        chunkRows,
        locate: plan.source === LEGACY_SHARD,
      };
      const outcome = await copyStep(source, target, tables, plan.cursors, scope);
      return {
        ...plan,
        cursors: outcome.cursors,
        written: plan.written + outcome.written,
        deleted: plan.deleted + outcome.deleted,
      };
    }
    case "fence":
      await fence(source, plan.workspaceId, plan.owner).run();
      return { ...enter(plan, "final"), fencedAt: now() };
    case "verify": {
      if (passDone(plan.cursors)) {
        const failed = Object.values(plan.checks).find((check) => !checkPasses(check));
        if (!failed) return enter(plan, "switch");
        const { table, source: s, target: t } = failed;
        return rollback(
          plan,
          `Verify failed on ${table}: ${s.rows} rows on the source, ${t.rows} on the target`,
        );
      }
      return {
        ...plan,
        ...(await verifyStep(source, target, tables, plan.cursors, plan.checks, plan.owner)),
      };
    }
    case "switch": {
      // A fence left on the target by an earlier move out of it goes first: the target serves from now on.
      await liftFence(target, plan.workspaceId).run();
      const switched = await switchShard(directory, plan.workspaceId, plan.source, plan.target);
      const row = switched ? null : await findWorkspace(directory, plan.workspaceId);
      if (!switched && row?.shard !== plan.target)
        return rollback(plan, "The directory changed during the move");
      return { ...toCleanup(env, plan), switchedAt: plan.switchedAt ?? now() };
    }
    case "cleanup": {
      // The source's fence stays up: only the mover's own batches get past it.
      if (deletesDone(plan, plan.cursors)) return { ...plan, phase: "done", finishedAt: now() };
      return { ...plan, cursors: await deleteStep(source, plan) };
    }
    case "rollback": {
      if (!plan.released) {
        const row = await findWorkspace(directory, plan.workspaceId);
        // Switched already (a retried switch): the target holds the workspace now, so finish instead.
        if (row?.shard === plan.target) {
          return { ...toCleanup(env, plan), failure: null, switchedAt: plan.switchedAt ?? now() };
        }
        await liftFence(source, plan.workspaceId).run();
        await releaseMove(directory, plan.workspaceId, plan.target);
        return { ...plan, released: true };
      }
      if (deletesDone(plan, plan.cursors)) return { ...plan, phase: "failed", finishedAt: now() };
      return { ...plan, cursors: await deleteStep(target, plan) };
    }
    case "done":
    case "failed":
      return plan;
  }
}

/**
 * Runs a move's next steps, saving the plan after each one, so a crash repeats at most the step it was
 * in (every step can run twice: copies compare before they write, deletes find what is left).
 */
export async function advance(
  env: Env,
  plan: MovePlan,
  save: (plan: MovePlan) => Promise<void>,
): Promise<MovePlan> {
  if (!isShardName(env, plan.source) || !isShardName(env, plan.target)) {
    const failed: MovePlan = {
      ...plan,
      phase: "failed",
      failure: "A shard of this move is no longer bound",
      finishedAt: now(),
    };
    await save(failed);
    return failed;
  }
  const source = shardBinding(env, plan.source);
  const target = shardBinding(env, plan.target);
  let current = plan;
  const started = Date.now();
  for (
    let n = 0;
    n < STEPS_PER_ALARM &&
    !isFinished(current) &&
    Date.now() - started < ALARM_BUDGET_MS &&
    nextStepAt(current) <= Date.now();
    n++
  ) {
    current = { ...(await step(current, { env, source, target })), attempts: 0 };
    await save(current);
  }
  return current;
}
