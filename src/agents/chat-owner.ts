// `user-<id>` or `user-<id>-<suffix>`: with AGENTS_REQUIRE_AUTH=true the /agents gate lets only that user in.
const OWNED_NAME = /^user-([1-9][0-9]{0,15})(?:-[A-Za-z0-9_-]+)?$/;

/** The id of the user a chat instance belongs to, from its name; null for names no user owns. */
export function ownerIdFromChatName(name: string): number | null {
  const id = Number(OWNED_NAME.exec(name)?.[1]);
  return Number.isSafeInteger(id) ? id : null;
}

/** The chat instance that is a user's own agent (reminders go there). */
export function ownChatName(userId: number): string {
  return `user-${userId}`;
}
