import type { Logger } from "../core/logger";
import type { Db } from "../db/client";
import type { WipedAgent } from "../db/chats-schema";
import { wasWiped } from "../core/agent-reset";
import * as queries from "./agent-wipes.queries";

/** A delete that leaves at most this many instances to wipe wipes them before it answers. */
export const WIPE_IN_REQUEST = 20;
// Each wipe is one Durable Object call: a cron run stays far below an invocation's subrequest limit.
const SWEEP_BATCH = 25;
const SWEEP_BATCHES_PER_RUN = 10;

export { deleteChatStatements, queueTeamFeeds, queueUserAgents } from "./agent-wipes.queries";

export interface WipeOutcome {
  /** Agent instances queued for a wipe. */
  instances: number;
  /** Left to the hourly cron: too many for one request, or a wipe failed meanwhile. */
  pending: boolean;
}

/** The instance's own wipe (its storage, alarm and schedules deleted, its sockets closed). */
async function wipeInstance(env: Env, agent: WipedAgent, name: string): Promise<void> {
  const stub = agent === "chat-agent" ? env.ChatAgent.getByName(name) : env.TodoFeedAgent.getByName(name);
  try {
    await stub.wipe();
  } catch (err) {
    if (!wasWiped(err)) throw err;
  }
}

/**
 * Wipes the instances of these queued rows and drops the rows of those it wiped. Idempotent: wiping
 * an empty instance is no error. A failed wipe keeps its row for the next attempt; returns how many failed.
 */
async function wipeRows(env: Env, db: Db, rows: queries.QueuedWipe[], logger?: Logger): Promise<number> {
  const results = await Promise.allSettled(rows.map((row) => wipeInstance(env, row.agent, row.name)));
  const wiped = rows.filter((_, i) => results[i]!.status === "fulfilled").map((row) => row.id);
  await queries.dropQueued(db, wiped);
  // Each wipe ends in a reset that workerd logs as "Uncaught (async) Error: agent wiped: …": this line says what it was.
  if (wiped.length > 0) logger?.info("agent_wiped", { count: wiped.length });
  const failed = results.flatMap((result, i) =>
    result.status === "rejected" ? [`${rows[i]!.agent}/${rows[i]!.name}: ${String(result.reason)}`] : [],
  );
  if (failed.length > 0)
    logger?.warn("agent_wipe_failed", { failed: failed.slice(0, 5), count: failed.length });
  return failed.length;
}

/** Right after the delete's batch: wipes the instances it queued now when few, else leaves them to the cron. */
export async function wipeNowIfFew(
  env: Env,
  db: Db,
  erasureId: string,
  logger: Logger,
): Promise<WipeOutcome> {
  const rows = await queries.nextQueued(db, erasureId, WIPE_IN_REQUEST + 1);
  if (rows.length > WIPE_IN_REQUEST) {
    return { instances: await queries.countQueued(db, erasureId), pending: true };
  }
  if (rows.length === 0) return { instances: 0, pending: false };
  const failed = await wipeRows(env, db, rows, logger);
  return { instances: rows.length, pending: failed > 0 };
}

export interface SweepLimits {
  batchSize?: number;
  maxBatches?: number;
}

/**
 * The cron's part: wipes queued instances of every delete, oldest first, in bounded batches. A wipe
 * that fails stays queued for the next run; the run goes on past it.
 */
export async function sweepAgentWipes(
  env: Env,
  db: Db,
  logger?: Logger,
  { batchSize = SWEEP_BATCH, maxBatches = SWEEP_BATCHES_PER_RUN }: SweepLimits = {},
): Promise<number> {
  let wiped = 0;
  let afterId = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const rows = await queries.nextQueued(db, undefined, batchSize, afterId);
    if (rows.length === 0) break;
    wiped += rows.length - (await wipeRows(env, db, rows, logger));
    afterId = rows.at(-1)!.id;
  }
  return wiped;
}
