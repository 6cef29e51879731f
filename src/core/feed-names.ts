import { ownerKey, parseOwnerKey, userOwner, type Owner } from "./owner";

/**
 * The one live-feed instance of a user, `/agents/todo-feed-agent/user-<id>`, which their sockets open;
 * a team's, `org-<id>`, reads the team's log and passes it on to its members' feeds (never opened).
 */
export function feedName(owner: Owner | number): string {
  return ownerKey(typeof owner === "number" ? userOwner(owner) : owner);
}

/** The owner whose feed `name` is (feedName's inverse), or null for any other name. */
export function feedOwner(name: string): Owner | null {
  const owner = parseOwnerKey(name);
  const id = owner && (owner.kind === "user" ? owner.userId : owner.orgId);
  return owner && Number.isSafeInteger(id) ? owner : null;
}
