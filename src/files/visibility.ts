import type { VISIBILITIES } from "../db/files-schema";

/**
 * `public` (the default, as downloads by key always were): anyone with the key downloads it.
 * `private`: its owner or a share link.
 */
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * An object's custom metadata: `originalName`, as every upload stores it, and for a private object its
 * visibility and owner, so a download reads who may have it from the object itself and a public
 * download stays one R2 call.
 */
export function objectMetadata(
  originalName: string,
  visibility: Visibility,
  ownerId: number,
): Record<string, string> {
  return visibility === "private" ? { originalName, visibility, owner: String(ownerId) } : { originalName };
}

export function visibilityOf(object: Pick<R2Object, "customMetadata">): Visibility {
  return object.customMetadata?.visibility === "private" ? "private" : "public";
}

/** The owner's id of a private object; undefined for a public one, which anyone with the key reads. */
export function privateOwner(object: Pick<R2Object, "customMetadata">): number | undefined {
  if (visibilityOf(object) === "public") return undefined;
  // A private object without a readable owner is nobody's to read but through a link.
  return Number(object.customMetadata?.owner) || 0;
}
