import { ownerKey, type Owner } from "../core/owner";
import { privateOwner } from "./visibility";

/**
 * May this object be attached to a todo of `todoOwner`? A public one by anyone (its key is the
 * capability); a private one only by its own owner's todos: a user's private file to their personal
 * todos, a team's file to that team's todos. Whether the writer may write the todo is the todo's check.
 */
export function mayAttachTo(object: Pick<R2Object, "customMetadata">, todoOwner: Owner): boolean {
  const owner = privateOwner(object);
  if (owner === undefined) return true;
  return owner !== null && ownerKey(owner) === ownerKey(todoOwner);
}
