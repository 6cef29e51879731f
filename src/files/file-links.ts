import type { Db } from "../db/client";
import * as queries from "./file-links.queries";

export const MIN_LINK_TTL_SECONDS = 60;
export const MAX_LINK_TTL_SECONDS = 30 * 24 * 60 * 60;
export const MAX_LINK_DOWNLOADS = 1_000_000;
/** Live links per file: each is a row, and a file shared more widely than this is better made public. */
export const MAX_LIVE_LINKS = 20;
/** What listing a file's links returns, newest first. */
export const LISTED_LINKS = 100;

export type LinkState = "active" | "expired" | "used_up" | "revoked";

export function linkState(
  link: Pick<queries.LinkRow, "revokedAt" | "expiresAt" | "maxDownloads" | "downloads">,
  now = new Date(),
): LinkState {
  if (link.revokedAt !== null) return "revoked";
  if (link.expiresAt <= now.toISOString()) return "expired";
  if (link.maxDownloads !== null && link.downloads >= link.maxDownloads) return "used_up";
  return "active";
}

/** A link's file key when it is live, or why not (`unknown`: no such link). */
export type LinkUse = { state: "active"; key: string } | { state: Exclude<LinkState, "active"> | "unknown" };

function use(found: { link: queries.LinkRow; key: string } | null, now: Date): LinkUse {
  if (!found) return { state: "unknown" };
  const state = linkState(found.link, now);
  return state === "active" ? { state, key: found.key } : { state };
}

/** Counts one download through the link, if it is live; `now` is injectable so expiry can be tested. */
export async function redeemLink(db: Db, id: string, now = new Date()): Promise<LinkUse> {
  const found = await queries.countDownload(db, id, now.toISOString());
  if (!found) return { state: "unknown" };
  if (found.counted) return { state: "active", key: found.key };
  // Read in the batch right after the refused count, so the row says why it was refused.
  const state = linkState(found.link, now);
  return { state: state === "active" ? "used_up" : state };
}

/** The link's file key if it is live, without counting a download (HEAD). */
export async function peekLink(db: Db, id: string, now = new Date()): Promise<LinkUse> {
  return use(await queries.findLink(db, id), now);
}
