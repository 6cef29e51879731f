import { DurableObject } from "cloudflare:workers";
import type { Owner } from "../core/owner";
import type { MovePlan } from "./move-plan";

// A Durable Object with alarms rather than a Workflow: one instance per workspace (`workspace-<id>`)
// serialises its moves with no lock of our own, the admin route reads its progress with one RPC, its
// storage keeps the plan chunk by chunk, and an alarm resumes it after any crash or restart; tests drive
// it in the vitest pool as it runs deployed.

/** Attempts of one step before a move gives up and rolls back (only while the source still serves). */
const MAX_ATTEMPTS = 5;
const FIRST_RETRY_MS = 250;

export type StartOutcome =
  | { status: "started"; plan: MovePlan }
  | { status: "busy" }
  | { status: "already_there" };

export interface MoveRequest {
  workspaceId: number;
  owner: Owner;
  source: string;
  target: string;
}

const PLAN = "plan";

export class ShardMover extends DurableObject<Env> {
  /** Starts a move (the route has checked the target's name and found the workspace). */
  async start(request: MoveRequest): Promise<StartOutcome> {
    if (request.source === request.target) return { status: "already_there" };
    const current = await this.ctx.storage.get<MovePlan>(PLAN);
    const { isFinished, newPlan } = await import("./move-plan");
    if (current && !isFinished(current)) return { status: "busy" };
    const plan = newPlan(request.workspaceId, request.owner, request.source, request.target);
    // The plan and its alarm first: a crash right after the claim below still finds the move and runs it
    // (its first step checks that the directory holds the move).
    await this.ctx.storage.put(PLAN, plan);
    await this.ctx.storage.setAlarm(Date.now());
    const { claimMove } = await import("./workspace-moves.queries");
    const { openDatabases } = await import("../db/databases");
    if (!(await claimMove(openDatabases(this.env).directory, request.workspaceId, request.target))) {
      await this.ctx.storage.deleteAlarm();
      if (current) await this.ctx.storage.put(PLAN, current);
      else await this.ctx.storage.delete(PLAN);
      return { status: "busy" };
    }
    return { status: "started", plan };
  }

  /** The current or last move of this workspace, or null. */
  async progress(): Promise<MovePlan | null> {
    return (await this.ctx.storage.get<MovePlan>(PLAN)) ?? null;
  }

  override async alarm(): Promise<void> {
    const plan = await this.ctx.storage.get<MovePlan>(PLAN);
    const { advance, rollback } = await import("./move-steps");
    const { beforeSwitch, isFinished, nextStepAt } = await import("./move-plan");
    if (!plan || isFinished(plan)) return;
    const save = (next: MovePlan) => this.ctx.storage.put(PLAN, next);
    let next: MovePlan;
    try {
      next = await advance(this.env, plan, save);
    } catch (err) {
      // Retried here rather than by the runtime (which stops after six): a move must end, done or rolled back.
      const saved = (await this.ctx.storage.get<MovePlan>(PLAN)) ?? plan;
      const attempts = saved.attempts + 1;
      const lastError = err instanceof Error ? err.message : String(err);
      next = { ...saved, attempts, lastError };
      if (attempts >= MAX_ATTEMPTS && beforeSwitch(saved) && saved.phase !== "rollback") {
        next = { ...rollback(next, `Gave up after ${attempts} attempts: ${lastError}`), attempts: 0 };
      }
      await save(next);
      await this.ctx.storage.setAlarm(Date.now() + Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), 60_000));
      return;
    }
    if (!isFinished(next)) await this.ctx.storage.setAlarm(Math.max(Date.now(), nextStepAt(next)));
  }
}
