// Runs in the Durable Object: what the live feeds read of teams in D1, in plain SQL (see feed-log.ts).

const TEAMS_OF = "SELECT orgId FROM org_members_table WHERE userId = ? ORDER BY orgId";
const MEMBER_NAME =
  "SELECT u.username AS username FROM org_members_table m JOIN users_table u ON u.id = m.userId " +
  "WHERE m.orgId = ? AND m.userId = ?";

/** The teams `userId` belongs to now. */
export async function teamsOf(db: D1Database, userId: number): Promise<number[]> {
  const { results } = await db.prepare(TEAMS_OF).bind(userId).all<{ orgId: number }>();
  return results.map((row) => row.orgId);
}

/** The member's username while they belong to the team; null once they do not. */
export async function memberName(db: D1Database, orgId: number, userId: number): Promise<string | null> {
  const row = await db.prepare(MEMBER_NAME).bind(orgId, userId).first<{ username: string }>();
  return row?.username ?? null;
}
