import type { Context } from "hono";
import { linkToken, newLinkId } from "../../files/link-tokens";
import { jwtSecret } from "../../auth/tokens";
import { foreignKeyViolation } from "../../db/errors";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedEnv, AuthedRouteContext } from "../../http/types";
import { ownerOfRow } from "../../files/file-owner";
import { LISTED_LINKS, linkState, MAX_LIVE_LINKS } from "../../files/file-links";
import * as queries from "../../files/file-links.queries";
import type { FileRow } from "../../files/file-records.queries";
import { accessibleFile, fileNotFound } from "../files/file-access";
import { teamFileEntry } from "../files/team-audit";
import type { CreateRoute, ListRoute, RevokeRoute } from "./file-links.routes";

/**
 * The file under `key` if the caller may share it: their own, or a team's for members and up (a link
 * makes a file public, and listing shows the links' URLs: viewers 403); anyone else's is not found.
 */
const shareableFile = (c: Context<AuthedEnv>, key: string) => accessibleFile(c, key, "data:write");

/** A link as its owner sees it: the URL to share (signed again: only the id is stored) and its state. */
async function linkView(
  c: Context<AuthedEnv>,
  file: FileRow,
  { fileId: _fileId, ...link }: queries.LinkRow,
  now: Date,
) {
  const token = await linkToken(jwtSecret(c.env), link.id, ownerOfRow(file));
  return { ...link, url: new URL(`/api/links/${token}`, c.req.url).href, state: linkState(link, now) };
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { key } = c.req.valid("param");
  const { expiresIn, maxDownloads } = c.req.valid("json");
  const { db, file } = await shareableFile(c, key);
  const now = new Date();
  if ((await queries.countLiveLinks(db, file.id, now.toISOString())) >= MAX_LIVE_LINKS) {
    throw new ApiError(409, `At most ${MAX_LIVE_LINKS} live links per file: revoke one first`);
  }
  const expiresAt = new Date(now.getTime() + expiresIn * 1000).toISOString();
  let link;
  try {
    const id = newLinkId();
    const audit = teamFileEntry(c, db, ownerOfRow(file), {
      action: "link.created",
      target: key,
      detail: { linkId: id },
    });
    link = await queries.insertLink(db, { id, fileId: file.id, expiresAt, maxDownloads }, audit);
  } catch (err) {
    // Deleted since it was found.
    if (foreignKeyViolation(err)) throw fileNotFound();
    throw err;
  }
  c.get("logger").info("link_created", { key, linkId: link.id });
  return created(c, await linkView(c, file, link, now));
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const { key } = c.req.valid("param");
  const { db, file } = await shareableFile(c, key);
  const now = new Date();
  const links = await queries.listLinksForFile(db, file.id, LISTED_LINKS);
  return ok(c, { items: await Promise.all(links.map((link) => linkView(c, file, link, now))) });
}

export async function revoke(c: AuthedRouteContext<RevokeRoute>) {
  const { key, linkId } = c.req.valid("param");
  const { db, file } = await shareableFile(c, key);
  const now = new Date();
  const audit = teamFileEntry(c, db, ownerOfRow(file), {
    action: "link.revoked",
    target: key,
    detail: { linkId },
  });
  const link = await queries.revokeLink(db, linkId, file.id, now.toISOString(), audit);
  if (!link) throw new ApiError(404, "Link not found");
  c.get("logger").info("link_revoked", { key, linkId });
  return ok(c, await linkView(c, file, link, now));
}
