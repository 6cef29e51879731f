import { findAuthUserById } from "../../auth/auth-user.queries";
import { userGone, userGoneOr } from "../../http/require-auth";
import type { Db } from "../../db/client";
import { RecordLostError } from "../../files/file-records";

/**
 * An upload whose user was deleted while it ran (its reservation went by cascade, or a row it wrote
 * points at nobody) is answered as the gate would answer now; any other error as it is.
 */
export async function uploadFailure(db: Db, err: unknown, userId: number): Promise<unknown> {
  if (err instanceof RecordLostError && !(await findAuthUserById(db, userId))) return userGone(userId);
  return userGoneOr(err, userId);
}
