import type { Context } from "hono";
import { linkToken, newLinkId } from "../../files/link-tokens";
import { jwtSecret } from "../../auth/tokens";
import { foreignKeyViolation } from "../../db/errors";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedEnv, AuthedRouteContext } from "../../http/types";
import { findFileForUser } from "../../files/file-records.queries";
import { LISTED_LINKS, linkState, MAX_LIVE_LINKS } from "../../files/file-links";
import * as queries from "../../files/file-links.queries";
import type { CreateRoute, ListRoute, RevokeRoute } from "./file-links.routes";

const fileNotFound = () => new ApiError(404, "File not found");

/** The caller's file under `key`; anyone else's is not found. */
async function ownFile(c: Context<AuthedEnv>, key: string) {
  const file = await findFileForUser(c.get("db"), key, c.get("user").id);
  if (!file) throw fileNotFound();
  return file;
}

/** A link as its owner sees it: the URL to share (signed again: only the id is stored) and its state. */
async function linkView(c: Context<AuthedEnv>, { fileId: _fileId, ...link }: queries.LinkRow, now: Date) {
  const token = await linkToken(jwtSecret(c.env), link.id);
  return { ...link, url: new URL(`/api/links/${token}`, c.req.url).href, state: linkState(link, now) };
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { key } = c.req.valid("param");
  const { expiresIn, maxDownloads } = c.req.valid("json");
  const db = c.get("db");
  const file = await ownFile(c, key);
  const now = new Date();
  if ((await queries.countLiveLinks(db, file.id, now.toISOString())) >= MAX_LIVE_LINKS) {
    throw new ApiError(409, `At most ${MAX_LIVE_LINKS} live links per file: revoke one first`);
  }
  const expiresAt = new Date(now.getTime() + expiresIn * 1000).toISOString();
  let link;
  try {
    link = await queries.insertLink(db, { id: newLinkId(), fileId: file.id, expiresAt, maxDownloads });
  } catch (err) {
    // Deleted since it was found.
    if (foreignKeyViolation(err)) throw fileNotFound();
    throw err;
  }
  c.get("logger").info("link_created", { key, linkId: link.id });
  return created(c, await linkView(c, link, now));
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const { key } = c.req.valid("param");
  const file = await ownFile(c, key);
  const now = new Date();
  const links = await queries.listLinksForFile(c.get("db"), file.id, LISTED_LINKS);
  return ok(c, { items: await Promise.all(links.map((link) => linkView(c, link, now))) });
}

export async function revoke(c: AuthedRouteContext<RevokeRoute>) {
  const { key, linkId } = c.req.valid("param");
  const file = await ownFile(c, key);
  const now = new Date();
  const link = await queries.revokeLink(c.get("db"), linkId, file.id, now.toISOString());
  if (!link) throw new ApiError(404, "Link not found");
  c.get("logger").info("link_revoked", { key, linkId });
  return ok(c, await linkView(c, link, now));
}
