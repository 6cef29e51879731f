import { limitAuthAttempt } from "../../auth/passwords/attempt-limits";
import { accountEntry } from "../../http/audit-actor";
import { finishRegistration, startRegistration } from "../../auth/passkeys/passkey-registration";
import { finishSignIn, startSignIn, type SignInFailure } from "../../auth/passkeys/passkey-sign-in";
import { deletePasskey, listPasskeys, renamePasskey } from "../../auth/passkeys/passkeys.queries";
import { relyingParty } from "../../auth/passkeys/relying-party";
import type { ChallengeFailure } from "../../auth/passkeys/passkey-challenges";
import { sha256Hex } from "../../auth/opaque-tokens";
import { signIn as startSession } from "../../auth/sessions/sign-in";
import { jwtSecret } from "../../auth/tokens";
import { findUserById } from "../../auth/users.queries";
import { requireCurrentPassword } from "../../http/current-password";
import { userGone, userGoneOr } from "../../http/require-auth";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { pageOf, pageOffset } from "../../core/paging";
import type { AppRouteContext, AuthedRouteContext } from "../../http/types";
import type {
  ListRoute,
  RegisterRoute,
  RegistrationOptionsRoute,
  RemoveRoute,
  RenameRoute,
  SignInOptionsRoute,
  SignInRoute,
} from "./passkeys.routes";

const notFound = () => new ApiError(404, "Passkey not found");

const REGISTRATION_REFUSALS: Record<ChallengeFailure | "refused", string> = {
  expired_challenge: "Passkey registration expired: start again",
  invalid_challenge: "Passkey challenge is invalid or not yours: start again",
  used_challenge: "Passkey challenge already used: start again",
  refused: "Passkey not accepted",
};

// One word for every failed check of the assertion itself, so a refusal tells an attacker nothing.
const SIGN_IN_REFUSALS: Record<SignInFailure, string> = {
  expired_challenge: "Passkey sign-in expired: start again",
  invalid_challenge: "Passkey challenge is invalid: start again",
  used_challenge: "Passkey challenge already used: start again",
  refused: "Passkey not accepted",
};

export async function registrationOptions(c: AuthedRouteContext<RegistrationOptionsRoute>) {
  const { currentPassword } = c.req.valid("json");
  const user = c.get("user");
  const db = c.var.dbs.directory;
  const secret = jwtSecret(c.env);
  await requireCurrentPassword(c, user.id, currentPassword);
  const profile = await findUserById(db, user.id);
  if (!profile) throw userGone(user.id);
  const rp = relyingParty(c.env, c.req.url);
  return ok(
    c,
    await startRegistration(db, secret, rp, { id: user.id, username: profile.username, name: profile.name }),
  );
}

export async function register(c: AuthedRouteContext<RegisterRoute>) {
  const user = c.get("user");
  const secret = jwtSecret(c.env);
  const rp = relyingParty(c.env, c.req.url);
  let outcome;
  try {
    const audit = accountEntry(c, user.id, { action: "passkey.added" });
    outcome = await finishRegistration(c.var.dbs.directory, secret, rp, user.id, c.req.valid("json"), audit);
  } catch (err) {
    throw userGoneOr(err, user.id);
  }
  const logger = c.get("logger");
  if (!outcome.ok) {
    logger.info("passkey_registration_refused", {
      userId: user.id,
      reason: outcome.reason,
      detail: outcome.detail,
    });
    throw new ApiError(400, REGISTRATION_REFUSALS[outcome.reason]);
  }
  logger.info("passkey_registered", { userId: user.id, passkeyId: outcome.passkey.id });
  return created(c, outcome.passkey);
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const query = c.req.valid("query");
  const { items, total } = await listPasskeys(
    c.var.dbs.directory,
    c.get("user").id,
    pageOffset(query),
    query.pageSize,
  );
  return ok(c, pageOf(items, total, query));
}

export async function rename(c: AuthedRouteContext<RenameRoute>) {
  const { id } = c.req.valid("param");
  const passkey = await renamePasskey(c.var.dbs.directory, id, c.get("user").id, c.req.valid("json").name);
  if (!passkey) throw notFound();
  return ok(c, passkey);
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { id } = c.req.valid("param");
  const user = c.get("user");
  const audit = accountEntry(
    c,
    user.id,
    { action: "passkey.removed", target: `passkey-${id}` },
    { ifChanged: true },
  );
  const passkey = await deletePasskey(c.var.dbs.directory, id, user.id, audit);
  if (!passkey) throw notFound();
  c.get("logger").info("passkey_deleted", { userId: user.id, passkeyId: id });
  return ok(c, passkey);
}

export async function signInOptions(c: AppRouteContext<SignInOptionsRoute>) {
  return ok(c, await startSignIn(jwtSecret(c.env), relyingParty(c.env, c.req.url)));
}

export async function signIn(c: AppRouteContext<SignInRoute>) {
  const { response } = c.req.valid("json");
  await limitAuthAttempt(c.env, c.req.raw.headers, "passkey", await sha256Hex(response.id));
  const secret = jwtSecret(c.env);
  const db = c.var.dbs.directory;
  const outcome = await finishSignIn(db, secret, relyingParty(c.env, c.req.url), response);
  const logger = c.get("logger");
  if (!outcome.ok) {
    logger.info("auth_passkey_failed", { reason: outcome.reason, detail: outcome.detail });
    throw new ApiError(401, SIGN_IN_REFUSALS[outcome.reason]);
  }
  logger.info("auth_passkey_login", { userId: outcome.user.id, passkeyId: outcome.passkeyId });
  try {
    const audit = accountEntry(c, outcome.user.id, {
      action: "account.signed_in",
      detail: { method: "passkey" },
    });
    return created(c, await startSession(db, secret, outcome.user, c.req.raw.headers, audit));
  } catch (err) {
    throw userGoneOr(err, outcome.user.id);
  }
}
