import { placementShards } from "../../db/shard-names";
import { eraseAccountData } from "../../files/account-erasure";
import { accepted, created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthUser } from "../../auth/credentials";
import type { AuthedRouteContext } from "../../http/types";
import { hashPassword } from "../../auth/passwords/passwords";
import { findUserByEmail } from "../../auth/passwords/password-resets.queries";
import { requestEmailChange, verifyNewAccount } from "../../auth/email/email-links";
import { cancelEmailChange } from "../../auth/email/email-links.queries";
import { requireCurrentPassword } from "../../http/current-password";
import { asUserConflict, UserConflictError, usernameKey } from "../../auth/usernames";
import { pageOf, pageOffset } from "../../core/paging";
import * as queries from "../../auth/users.queries";
import type { CreateRoute, GetOneRoute, ListRoute, MeRoute, RemoveRoute, UpdateRoute } from "./users.routes";
import { CURRENT_PASSWORD_FOR_EMAIL, CURRENT_PASSWORD_REQUIRED } from "./users.schemas";
import { fullView, userView } from "./users.views";
import { forgetAuthUser } from "../../auth/auth-user-cache";
import { endSocketsOf } from "../../agents/end-sockets";
import { eraseNowIfSmall, queueUserObjects } from "../../files/erasure";
import { wipeNowIfFew } from "../../chats/agent-wipes";
import { eraseChatIndex } from "../../chats/chat-erasure.queries";
import { userOwner } from "../../core/owner";
import type { Db } from "../../db/client";
import type { Logger } from "../../core/logger";
import { ownedOrgsGoingWith } from "../../orgs/account-orgs";
import { accountEntry } from "../../http/audit-actor";

const notFound = () => new ApiError(404, "User not found");

function requireAdmin(user: AuthUser) {
  if (user.role !== "admin") throw new ApiError(403, "Admin role required");
}

/** Oneself or an admin; anyone else gets 403 whether or not the id exists. */
function requireSelfOrAdmin(user: AuthUser, id: number) {
  if (user.role !== "admin" && user.id !== id) {
    throw new ApiError(403, "You can only change your own account");
  }
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const query = c.req.valid("query");
  const viewer = c.get("user");
  // A user who is not an admin lists only themselves: other accounts are not theirs to enumerate.
  const onlyId = viewer.role === "admin" ? undefined : viewer.id;
  const { items, total } = await queries.listUsers(
    c.var.dbs.directory,
    pageOffset(query),
    query.pageSize,
    onlyId,
  );
  return ok(
    c,
    pageOf(
      items.map((user) => userView(user, viewer)),
      total,
      query,
    ),
  );
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  requireAdmin(c.get("user"));
  const { password, ...profile } = c.req.valid("json");
  const passwordHash = await hashPassword(password);
  try {
    const user = await queries.insertUserWithPassword(
      c.var.dbs.directory,
      { ...profile, usernameKey: usernameKey(profile.username) },
      passwordHash,
      placementShards(c.env),
    );
    const logger = c.get("logger");
    logger.info("user_created", { userId: user.id, by: c.get("user").id });
    const { mail } = await verifyNewAccount(
      c.env,
      c.var.dbs.directory,
      user,
      new URL(c.req.url).origin,
      logger,
    );
    c.executionCtx.waitUntil(mail);
    return created(c, fullView(user));
  } catch (err) {
    throw asUserConflict(err);
  }
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const { id } = c.req.valid("param");
  const viewer = c.get("user");
  // Another user's account is 404 to anyone but an admin, exactly as an id that does not exist.
  if (viewer.role !== "admin" && viewer.id !== id) throw notFound();
  const user = await queries.findUserById(c.var.dbs.directory, id);
  if (!user) throw notFound();
  return ok(c, userView(user, viewer));
}

export async function me(c: AuthedRouteContext<MeRoute>) {
  const user = await queries.findUserById(c.var.dbs.directory, c.get("user").id);
  // Deleted since the gate let this request in.
  if (!user) throw notFound();
  return ok(c, { user: fullView(user), credential: c.get("credential") });
}

export async function update(c: AuthedRouteContext<UpdateRoute>) {
  const { id } = c.req.valid("param");
  const actor = c.get("user");
  requireSelfOrAdmin(actor, id);
  const { password, currentPassword, email, ...changes } = c.req.valid("json");
  if (changes.role !== undefined) requireAdmin(actor);
  if (currentPassword !== undefined && password === undefined && email === undefined) {
    throw new ApiError(400, "currentPassword is only used together with password or email");
  }

  const db = c.var.dbs.directory;
  const before = email === undefined ? null : await queries.findUserById(db, id);
  if (email !== undefined && !before) throw notFound();
  const newEmail = before && email !== before.email ? email : undefined;
  // Sending the address the account has drops a change that waits for its link.
  const cancelsChange = before !== null && newEmail === undefined && before.pendingEmail !== null;

  // Admins reset other users' passwords and addresses; everyone proves the old password for their own.
  if (actor.id === id && (password !== undefined || newEmail !== undefined)) {
    if (currentPassword === undefined) {
      throw new ApiError(
        400,
        password !== undefined ? CURRENT_PASSWORD_REQUIRED : CURRENT_PASSWORD_FOR_EMAIL,
      );
    }
    await requireCurrentPassword(c, id, currentPassword);
  }
  if (newEmail !== undefined && (await findUserByEmail(db, newEmail))) throw new UserConflictError("email");

  let passwordChange: queries.PasswordChange | undefined;
  if (password !== undefined) {
    // Your own change keeps the session you made it from; an admin's reset ends every session.
    const credential = c.get("credential");
    const keepSession = actor.id === id && credential.kind === "session" ? credential.sessionId : undefined;
    const event = { action: "password.changed", detail: { by: actor.id === id ? "self" : "admin" } };
    const audit = accountEntry(c, id, event, { ifChanged: true, actorId: actor.id });
    passwordChange = { hash: await hashPassword(password), keepSession, audit };
  }

  const profile =
    changes.username === undefined ? changes : { ...changes, usernameKey: usernameKey(changes.username) };
  let user;
  try {
    user =
      Object.keys(profile).length > 0 || passwordChange !== undefined
        ? await queries.updateUser(db, id, profile, passwordChange)
        : before;
  } catch (err) {
    throw asUserConflict(err);
  }
  if (!user) throw notFound();
  const logger = c.get("logger");
  if (newEmail !== undefined) {
    const origin = new URL(c.req.url).origin;
    const { notify } = await requestEmailChange(c.env, db, user, { newEmail, origin }, logger);
    c.executionCtx.waitUntil(notify);
    user = { ...user, pendingEmail: newEmail };
  } else if (cancelsChange) {
    await cancelEmailChange(db, id);
    user = { ...user, pendingEmail: null };
  }
  forgetAuthUser(id);
  // A new password or role ends sessions: their sockets close with them.
  if (passwordChange || changes.role !== undefined) endSocketsOf(c, id);
  logger.info("user_updated", { userId: id, by: actor.id, password: passwordChange !== undefined });
  return newEmail === undefined ? ok(c, fullView(user)) : accepted(c, fullView(user));
}

/**
 * Right after the delete: the objects and agent instances it queued, in each database where it queued
 * them, erased now when few (else left to the cron), as one outcome.
 */
async function eraseQueuedNow(env: Env, dbs: readonly Db[], erasureId: string, logger: Logger) {
  const outcomes = await Promise.all(
    [...new Set(dbs)].map((db) =>
      Promise.all([
        eraseNowIfSmall(env.R2_BUCKET, db, erasureId, logger),
        wipeNowIfFew(env, db, erasureId, logger),
      ]),
    ),
  );
  return {
    objects: outcomes.reduce((sum, [objects]) => sum + objects.objects, 0),
    pending: outcomes.some(([objects]) => objects.pending),
    agents: {
      instances: outcomes.reduce((sum, [, agents]) => sum + agents.instances, 0),
      pending: outcomes.some(([, agents]) => agents.pending),
    },
  };
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { id } = c.req.valid("param");
  const actor = c.get("user");
  requireSelfOrAdmin(actor, id);
  const db = c.var.dbs.directory;
  // Their objects and agents are queued (in each workspace's data database, then in the directory's batch for
  // its own tables) before their rows go, so none is forgotten if this request stops.
  const erasureId = crypto.randomUUID();
  const [{ statement: soleOwnedOrgs, orgIds, orgIdList }, found] = await Promise.all([
    ownedOrgsGoingWith(db, id),
    queries.findUserById(db, id),
  ]);
  if (!found) throw notFound();
  // The chat index is apart from the workspaces' rows: erased beside them, not after.
  const [workspaces] = await Promise.all([
    eraseAccountData(c.var.dbs, id, orgIdList, erasureId),
    c.var.dbs.of(userOwner(id)).then((userDb) => eraseChatIndex(userDb, id, erasureId)),
  ]);
  // The directory's own data tables: files of workspaces from before shards, and team files handed over.
  const queued = [...queueUserObjects(db, id, erasureId, orgIds), soleOwnedOrgs];
  if (!(await queries.deleteUser(db, id, queued))) throw notFound();
  forgetAuthUser(id);
  endSocketsOf(c, id);
  const logger = c.get("logger");
  const erasure = await eraseQueuedNow(c.env, [db, ...workspaces], erasureId, logger);
  // OAuth grants are in KV, outside the batch; /mcp refuses a deleted user's tokens whatever becomes of them.
  const { revokeAllGrants } = await import("../../auth/oauth/oauth-grants");
  const grants = await revokeAllGrants(c.env, id).catch((err: unknown) => {
    logger.warn("oauth_grants_revoke_failed", { userId: id, error: String(err) });
    return null;
  });
  logger.info("user_deleted", { userId: id, by: actor.id, ...erasure, grants });
  return ok(c, { id, erasure });
}
