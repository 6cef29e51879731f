// With AGENTS_REQUIRE_AUTH on, a chat instance belongs to the user whose id its name carries:
// `user-<id>` or `user-<id>-<suffix>`. The id is canonical (no leading zero), so one user has one prefix.
const OWNED_CHAT_NAME = /^user-([1-9]\d{0,15})(?:-[A-Za-z0-9_-]+)?$/;

/** The owner's user id from a chat instance name, or null when the name carries none. */
export function ownerIdFromChatName(name: string): number | null {
  const id = OWNED_CHAT_NAME.exec(name)?.[1];
  if (id === undefined) return null;
  const parsed = Number(id);
  return Number.isSafeInteger(parsed) ? parsed : null;
}

/** The chat instance that is a user's own agent (reminders go there). */
export function ownChatName(userId: number): string {
  return `user-${userId}`;
}
