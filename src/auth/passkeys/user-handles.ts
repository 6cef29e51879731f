import { base64url } from "../../core/base64url";
import { derivedKey } from "../../core/derived-keys";

const KEY_PURPOSE = "passkey-user-handle/v1";

/**
 * The user handle an authenticator stores with each of a user's passkeys: the same for all of them
 * (an authenticator keeps one passkey per site and handle, replacing rather than piling up), and opaque:
 * an HMAC of the user id, so it reveals neither the id nor the username. Each passkey keeps a copy, so
 * sign-in does not depend on JWT_SECRET staying the same.
 */
export async function userHandle(secret: string, userId: number): Promise<string> {
  const key = await derivedKey(secret, KEY_PURPOSE);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(String(userId)));
  return base64url(new Uint8Array(mac));
}
