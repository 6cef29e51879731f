import { ownerKey, parseOwnerKey, userOwner, type Owner } from "../core/owner";
import type { VISIBILITIES } from "../db/files-schema";

/**
 * `public` (the default, as downloads by key always were): anyone with the key downloads it.
 * `private`: its owner or a share link. A team's files are always private: its members are its owner.
 */
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * An object's custom metadata: `originalName`, as every upload stores it, and for a private object its
 * visibility and owner, so a download reads who may have it from the object itself and a public
 * download stays one R2 call. A user is named by their id alone (as before teams), a team by ownerKey().
 */
export function objectMetadata(
  originalName: string,
  visibility: Visibility,
  owner: Owner,
): Record<string, string> {
  if (visibility === "public") return { originalName };
  const named = owner.kind === "user" ? String(owner.userId) : ownerKey(owner);
  return { originalName, visibility, owner: named };
}

export function visibilityOf(object: Pick<R2Object, "customMetadata">): Visibility {
  return object.customMetadata?.visibility === "private" ? "private" : "public";
}

/**
 * The owner of a private object; undefined for a public one, which anyone with the key reads, and null
 * for a private one without a readable owner: nobody's to read but through a link.
 */
export function privateOwner(object: Pick<R2Object, "customMetadata">): Owner | null | undefined {
  if (visibilityOf(object) === "public") return undefined;
  const named = object.customMetadata?.owner ?? "";
  return /^[1-9][0-9]{0,15}$/.test(named) ? userOwner(Number(named)) : parseOwnerKey(named);
}
