import type { Owner } from "../core/owner";
import type { Cursors } from "./chunk-copy";
import type { TableCheck } from "./move-verify";

/**
 * A move's phases, in order: take an id block on the target; copy every table in chunks (writes go on
 * landing on the source meanwhile); copy again what changed during the first pass (still open); fence the
 * source; copy the last changes with the source frozen; verify counts and checksums; switch the directory;
 * delete the source's rows. A failure before the switch rolls back: the source stays as it was.
 */
export const MOVE_PHASES = [
  "prepare",
  "copy",
  "catchUp",
  "fence",
  "final",
  "verify",
  "switch",
  "cleanup",
  "rollback",
  "done",
  "failed",
] as const;
export type MovePhase = (typeof MOVE_PHASES)[number];

export interface MovePlan {
  workspaceId: number;
  owner: Owner;
  source: string;
  target: string;
  phase: MovePhase;
  /** Where the phase stands in each table (a pass, the verify, the deletes). */
  cursors: Cursors;
  blockStart: number;
  written: number;
  deleted: number;
  /** Each table's counts and checksums on both sides, as far as verified. */
  checks: Record<string, TableCheck>;
  /** A rollback has put the directory and the source back: what is left is deleting the copies. */
  released: boolean;
  /**
   * Epoch ms before which the catch-up pass (and so the fence and the switch) or the cleanup may not start:
   * routes isolates remembered before the claim or the switch have expired by then, and the requests that
   * read them have ended (src/core/config.ts routeSettleMs). Absent in plans saved before it existed.
   */
  waitUntil?: number;
  attempts: number;
  lastError: string | null;
  failure: string | null;
  startedAt: string;
  fencedAt: string | null;
  switchedAt: string | null;
  finishedAt: string | null;
}

export const isFinished = (plan: MovePlan) => plan.phase === "done" || plan.phase === "failed";

/** When the plan's next step may run (epoch ms; 0: now): the catch-up and the cleanup wait for waitUntil. */
export const nextStepAt = (plan: MovePlan) =>
  plan.phase === "catchUp" || plan.phase === "cleanup" ? (plan.waitUntil ?? 0) : 0;

/** Whether the directory still points at the source: a failure now can roll back. */
export const beforeSwitch = (plan: MovePlan) =>
  ["prepare", "copy", "catchUp", "fence", "final", "verify", "switch"].includes(plan.phase);

export function newPlan(workspaceId: number, owner: Owner, source: string, target: string): MovePlan {
  return {
    workspaceId,
    owner,
    source,
    target,
    phase: "prepare",
    cursors: {},
    blockStart: 0,
    written: 0,
    deleted: 0,
    checks: {},
    released: false,
    attempts: 0,
    lastError: null,
    failure: null,
    startedAt: new Date().toISOString(),
    fencedAt: null,
    switchedAt: null,
    finishedAt: null,
  };
}
