import type { Context } from "hono";
import { authenticateHeader } from "../../auth/authenticate";
import { readLinkToken } from "../../files/link-tokens";
import { missingScope } from "../../auth/scopes";
import { jwtSecret } from "../../auth/tokens";
import { ApiError } from "../../http/errors";
import type { AppEnv, AppRouteContext } from "../../http/types";
import { isStorableKey } from "../../files/file-keys";
import { dbOfKey } from "../../files/key-places";
import { peekLink, redeemLink, type LinkUse } from "../../files/file-links";
import { deletedKeysAmong } from "../../files/file-trash.queries";
import { privateOwner } from "../../files/visibility";
import { openDatabases } from "../../db/databases";
import { dbOfCarriedOwner } from "../../db/carried-owner";
import { memberRole } from "../../orgs/membership";
import { can } from "../../orgs/org-roles";
import type { DownloadByLinkRoute, DownloadRoute } from "./downloads.routes";
import { fileNotFound, serveObject } from "./serve-object";

/**
 * A public object: anyone. A private one: its owner, by a sign-in or an API key with `files:read`; a
 * team's: every member whose role reads the team's data, the same way (anyone else finds nothing).
 */
async function ownerOrPublic(c: Context<AppEnv>, object: R2Object): Promise<boolean> {
  const owner = privateOwner(object);
  if (owner === undefined) return true;
  if (owner === null) return false;
  const db = c.var.dbs.directory;
  const result = await authenticateHeader(c.env, c.req.header("Authorization"), db);
  if (!result.ok || missingScope(result.credential, ["files:read"]) !== null) return false;
  if (owner.kind === "user") return result.user.id === owner.userId;
  const role = await memberRole(db, owner.orgId, result.user.id);
  return role !== null && can(role, "data:read");
}

export async function download(c: AppRouteContext<DownloadRoute>) {
  const { key } = c.req.valid("param");
  // R2 throws (10020) on keys over 1,024 bytes; such a key cannot exist, so it is simply not found.
  if (!isStorableKey(key)) throw fileNotFound();
  // A deleted file's object stays until its restore window ends: asked of the primary of the workspace's
  // database its key names (a replica may not have the delete yet) alongside R2, so it costs no extra wait.
  // An owner who is gone has no trash: their objects await erasure.
  const deleted = dbOfKey(openDatabases(c.env), key).then(
    async (db) => db !== null && (await deletedKeysAmong(db, [key])).size > 0,
  );
  deleted.catch(() => {}); // not awaited when R2 has no such object
  return serveObject(c, key, async (object) => !(await deleted) && ownerOrPublic(c, object));
}

const linkNotFound = () => new ApiError(404, "Link not found");

const REFUSALS: Record<Exclude<LinkUse["state"], "active">, () => ApiError> = {
  unknown: linkNotFound,
  revoked: linkNotFound,
  expired: () => new ApiError(410, "Link expired"),
  used_up: () => new ApiError(410, "Link used up: it allowed no more downloads"),
};

/**
 * A share link's download: every GET counts one download, atomically (HEAD only checks the link).
 * A forged token is refused before D1 is asked. The file's visibility does not matter: the link is
 * the owner's permission. No cache may keep the answer, or downloads would go uncounted.
 */
export async function downloadByLink(c: AppRouteContext<DownloadByLinkRoute>) {
  const { token } = c.req.valid("param");
  const link = await readLinkToken(jwtSecret(c.env), token);
  // The token names the workspace holding its link (one from before shards: where it moved, else the directory).
  const db = link && (await dbOfCarriedOwner(c.var.dbs, link.owner, { kind: "link", ref: link.id }));
  if (!link || !db) throw linkNotFound();
  const use = c.req.method === "HEAD" ? await peekLink(db, link.id) : await redeemLink(db, link.id);
  if (use.state !== "active") throw REFUSALS[use.state]();
  return serveObject(c, use.key, () => true, { "Cache-Control": "no-store" });
}
