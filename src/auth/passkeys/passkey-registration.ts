import type { BatchItem } from "drizzle-orm/batch";
import { Failure } from "../../core/failures";
import type { Db } from "../../db/client";
import { uniqueViolation } from "../../db/errors";
import type { RegistrationResponseJSON } from "./webauthn-json";
import { challengeJudge, issueChallenge, type ChallengeFailure } from "./passkey-challenges";
import { countPasskeys, insertPasskey, listCredentialIds, type PasskeyView } from "./passkeys.queries";
import type { RelyingParty } from "./relying-party";
import { userHandle } from "./user-handles";

/** Passkeys one user may hold: enough for every device and a spare key or two. */
export const MAX_PASSKEYS = 20;

const webauthn = () => import("./webauthn");

export class TooManyPasskeysError extends Failure {
  readonly kind = "conflict";

  constructor() {
    super(`At most ${MAX_PASSKEYS} passkeys per user: delete one first`);
    this.name = "TooManyPasskeysError";
  }
}

export class PasskeyTakenError extends Failure {
  readonly kind = "conflict";

  constructor() {
    super("This passkey is already registered");
    this.name = "PasskeyTakenError";
  }
}

/** Options for the browser to create a passkey for `user`, with a challenge bound to them for 5 minutes. */
export async function startRegistration(
  db: Db,
  secret: string,
  rp: RelyingParty,
  user: { id: number; username: string; name: string },
  now = new Date(),
) {
  const [{ challenge }, handle, exclude] = await Promise.all([
    issueChallenge(secret, "register", user.id, now),
    userHandle(secret, user.id),
    listCredentialIds(db, user.id),
  ]);
  // Said before the authenticator is touched, not after.
  if (exclude.length >= MAX_PASSKEYS) throw new TooManyPasskeysError();
  const { registrationOptions } = await webauthn();
  return registrationOptions(rp, { handle, name: user.username, displayName: user.name }, challenge, exclude);
}

export type RegistrationOutcome =
  | { ok: true; passkey: PasskeyView }
  | { ok: false; reason: ChallengeFailure | "refused"; detail?: string };

const defaultName = (now: Date) => `Passkey added ${now.toISOString().slice(0, 10)}`;

/**
 * Registers the passkey of an attestation answering a challenge issued to `userId`: the new passkey,
 * or why not. A passkey registered before is a PasskeyTakenError; more than MAX_PASSKEYS a
 * TooManyPasskeysError.
 */
export async function finishRegistration(
  db: Db,
  secret: string,
  rp: RelyingParty,
  userId: number,
  input: { response: RegistrationResponseJSON; name?: string },
  audit: BatchItem<"sqlite">,
  now = new Date(),
): Promise<RegistrationOutcome> {
  if ((await countPasskeys(db, userId)) >= MAX_PASSKEYS) throw new TooManyPasskeysError();
  const { judge, judged } = challengeJudge(secret, "register", userId, now);
  const { verifyRegistration } = await webauthn();
  const verdict = await verifyRegistration(input.response, rp, judge);
  if (!judged.accepted) return { ok: false, reason: judged.refused ?? "refused" };
  if (!verdict.ok) return { ok: false, reason: "refused", detail: verdict.detail };
  const passkey = {
    ...verdict.value,
    userId,
    userHandle: await userHandle(secret, userId),
    name: input.name ?? defaultName(now),
  };
  try {
    return { ok: true, passkey: await insertPasskey(db, passkey, judged.accepted, audit) };
  } catch (err) {
    const column = uniqueViolation(err);
    if (column === "used_passkey_challenges_table.challenge") return { ok: false, reason: "used_challenge" };
    if (column === "passkeys_table.credentialId") throw new PasskeyTakenError();
    throw err;
  }
}
