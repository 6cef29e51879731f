// Runs in the Worker: what a change of membership tells the live feeds (src/agents/todo-feed-agent.ts).
import type { Logger } from "../core/logger";
import { orgOwner, userOwner } from "../core/owner";
import { feedName } from "../core/feed-names";

const teamFeed = (env: Env, orgId: number) => env.TodoFeedAgent.getByName(feedName(orgOwner(orgId)));
const userFeed = (env: Env, userId: number) => env.TodoFeedAgent.getByName(feedName(userOwner(userId)));

/**
 * A member left or was removed: their feed hears nothing more of the team from now (awaited by the
 * removal, so it holds by its answer). A failure is logged: their feed then stops at the next
 * delivery it is offered, which it refuses once its sockets re-read their teams.
 */
export async function dropFromTeamFeed(env: Env, logger: Logger, orgId: number, userId: number) {
  try {
    await teamFeed(env, orgId).dropMember(userId);
  } catch (err) {
    logger.error("team_feed_drop_failed", { orgId, userId, error: String(err) });
  }
}

/** The user joined a team: their open sockets start to hear it (in the background). */
export async function joinTeamFeed(env: Env, logger: Logger, orgId: number, userId: number) {
  try {
    await userFeed(env, userId).joinTeam(orgId);
  } catch (err) {
    logger.error("team_feed_join_failed", { orgId, userId, error: String(err) });
  }
}
