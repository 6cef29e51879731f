/**
 * Whose something is: a user's own, or a team's. New code that stores or finds data by owner takes
 * this type and `ownerKey()`, so a team is one more kind of owner, not a second code path. Older
 * encodings remain for personal data: the `userId` column of todos, files, chats and uploads, the
 * `owner` custom metadata of private R2 objects (src/files/visibility.ts), the `user-<id>` Durable
 * Object names (src/todos/todo-events.ts, src/auth/chat-names.ts) and the sync cursors' user.
 */
export type Owner = { kind: "user"; userId: number } | { kind: "org"; orgId: number };

export const userOwner = (userId: number): Owner => ({ kind: "user", userId });
export const orgOwner = (orgId: number): Owner => ({ kind: "org", orgId });

/** `user-<id>` or `org-<id>`: the owner as one string (Durable Object names, audit targets, R2 prefixes). */
export function ownerKey(owner: Owner): string {
  return owner.kind === "user" ? `user-${owner.userId}` : `org-${owner.orgId}`;
}

/** The owner an ownerKey() names, or null for any other text. */
export function parseOwnerKey(key: string): Owner | null {
  const match = /^(user|org)-([1-9][0-9]{0,15})$/.exec(key);
  if (!match) return null;
  const id = Number(match[2]);
  return match[1] === "user" ? userOwner(id) : orgOwner(id);
}
