import type { AuthenticationResponseJSON } from "./webauthn-json";
import type { Db } from "../../db/client";
import { uniqueViolation } from "../../db/errors";
import { challengeJudge, issueChallenge, type ChallengeFailure } from "./passkey-challenges";
import { findCredential, recordSignIn } from "./passkeys.queries";
import type { RelyingParty } from "./relying-party";

const webauthn = () => import("./webauthn");

/** Options for the browser to sign in with any passkey it holds for `rp` (no username asked). */
export async function startSignIn(secret: string, rp: RelyingParty, now = new Date()) {
  const { challenge } = await issueChallenge(secret, "sign-in", null, now);
  const { signInOptions } = await webauthn();
  return signInOptions(rp, challenge);
}

export type SignInFailure = ChallengeFailure | "refused";

export type SignInOutcome =
  | { ok: true; user: { id: number; username: string; tokenVersion: number }; passkeyId: number }
  | { ok: false; reason: SignInFailure; detail?: string };

/**
 * The user an assertion signs in, or why not: a challenge that is not ours, expired or used before, a
 * wrong origin or RP id, a bad signature, a counter that did not go up; an unknown (or deleted)
 * credential, or a user handle that is not the credential's, is refused as a bad signature is (the
 * detail, for the log, tells them apart). A refusal writes nothing; a success records the challenge
 * as used and the passkey's counter and last use, in one batch.
 */
export async function finishSignIn(
  db: Db,
  secret: string,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  now = new Date(),
): Promise<SignInOutcome> {
  const found = await findCredential(db, response.id);
  // Discoverable sign-in names no user up front: the handle the authenticator kept must be this passkey's.
  const stored = found && response.response.userHandle === found.userHandle ? found : null;
  const { judge, judged } = challengeJudge(secret, "sign-in", null, now);
  const { verifySignIn, refuseUnknownCredential } = await webauthn();
  if (!stored) {
    const { detail } = await refuseUnknownCredential(response, rp, judge);
    return { ok: false, reason: judged.refused ?? "refused", detail };
  }
  const verdict = await verifySignIn(response, rp, stored, judge);
  if (!judged.accepted) return { ok: false, reason: judged.refused ?? "refused" };
  if (!verdict.ok) return { ok: false, reason: "refused", detail: verdict.detail };
  try {
    const use = { ...verdict.value, nowIso: now.toISOString() };
    if (!(await recordSignIn(db, stored.id, use, judged.accepted))) {
      return { ok: false, reason: "refused", detail: "deleted during sign-in" };
    }
  } catch (err) {
    if (uniqueViolation(err) === "used_passkey_challenges_table.challenge") {
      return { ok: false, reason: "used_challenge" };
    }
    throw err;
  }
  return { ok: true, user: stored.user, passkeyId: stored.id };
}
