// Runs in the Worker: the hook every credential-ending write calls (logout, revokes, password changes, deletes).
import type { Logger } from "../core/logger";

interface WriteContext {
  env: Env;
  executionCtx: Pick<ExecutionContext, "waitUntil">;
  var: { logger: Logger };
}

/**
 * After a write that ended one or more of `userId`'s credentials has committed: their open sockets
 * close, in the background, within a second (src/agents/socket-sweep.ts, loaded only then).
 */
export function endSocketsOf(c: WriteContext, userId: number): void {
  const logger = c.var.logger;
  const swept = import("./socket-sweep")
    .then(({ sweepAgentSockets }) => sweepAgentSockets(c.env, userId, logger))
    .catch((err: unknown) => logger.error("agent_sockets_sweep_failed", { userId, error: String(err) }));
  c.executionCtx.waitUntil(swept);
}
