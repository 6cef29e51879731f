import { base64url } from "../core/base64url";

/**
 * Opaque secrets handed to clients (refresh tokens, API keys, password-reset links): 32 random bytes
 * in base64url. Only their SHA-256 is stored, so a copy of the database signs nobody in.
 */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function randomSecret(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The stored form of a secret: its SHA-256 in hex. */
export async function sha256Hex(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
