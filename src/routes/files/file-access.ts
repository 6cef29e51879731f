import type { Context } from "hono";
import { orgOwner, userOwner, type Owner } from "../../core/owner";
import { ApiError } from "../../http/errors";
import type { AuthedEnv } from "../../http/types";
import type { Db } from "../../db/client";
import { dbOfKey } from "../../files/key-places";
import { ownerOfRow } from "../../files/file-owner";
import { findFileByKey, type FileRow } from "../../files/file-records.queries";
import { requireOrgAction } from "../orgs/org-access";

export const fileNotFound = () => new ApiError(404, "File not found");

/** What a team's role needs for a file: reading it (`data:read`), or changing or sharing it (`data:write`). */
export type FileAction = "data:read" | "data:write";

/**
 * Throws unless the caller may do `action` to something of `owner`: everything of their own, a team's
 * by their role there (403 for a role that may not); anyone else's answers `notFound()`, as if absent.
 */
export async function requireOwnerAccess(
  c: Context<AuthedEnv>,
  owner: Owner,
  action: FileAction,
  notFound = fileNotFound,
): Promise<void> {
  const userId = c.get("user").id;
  if (owner.kind === "user") {
    if (owner.userId !== userId) throw notFound();
    return;
  }
  await requireOrgAction(c.var.dbs.directory, owner.orgId, userId, action, notFound);
}

/**
 * Whose files a request names: the team of `orgId` once the caller's role may do `action` there
 * (a non-member gets 404 Team not found, as every route of a team answers), or without one the caller.
 */
export async function ownerNamed(
  c: Context<AuthedEnv>,
  orgId: number | undefined,
  action: FileAction,
): Promise<Owner> {
  const userId = c.get("user").id;
  if (orgId === undefined) return userOwner(userId);
  await requireOrgAction(c.var.dbs.directory, orgId, userId, action);
  return orgOwner(orgId);
}

/** A file's row and the data database holding it. */
export interface PlacedFile {
  db: Db;
  file: FileRow;
}

/** The file under `key` (found in the workspace its key names) when the caller may do `action` to it (see requireOwnerAccess). */
export async function accessibleFile(
  c: Context<AuthedEnv>,
  key: string,
  action: FileAction,
): Promise<PlacedFile> {
  const db = await dbOfKey(c.var.dbs, key);
  const file = db && (await findFileByKey(db, key));
  if (!db || !file) throw fileNotFound();
  await requireOwnerAccess(c, ownerOfRow(file), action);
  return { db, file };
}
