/**
 * PBKDF2-HMAC-SHA256 password hashes: `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`.
 * 100,000 is the most production workerd allows (it throws above that; local workerd does not).
 */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PREFIX = "pbkdf2-sha256";

// A hash of a random, discarded password: unknown usernames verify against it so both paths cost one derivation.
export const DUMMY_PASSWORD_HASH =
  "pbkdf2-sha256$100000$hT9ZLbK2e4xqTEe+tNTOsA==$QrCLUh+k1AOihIM4LNhqXdlTl+ALDmADOFBrMTAbH+M=";

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `${PREFIX}$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

interface ParsedHash {
  iterations: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

export function parsePasswordHash(stored: string): ParsedHash | null {
  const [prefix, iterationsText, saltText, hashText, ...rest] = stored.split("$");
  if (prefix !== PREFIX || rest.length > 0 || !iterationsText || !saltText || !hashText) return null;
  if (!/^[1-9]\d{0,8}$/.test(iterationsText)) return null;
  const iterations = Number(iterationsText);
  // Never above the production cap: such a hash would fail only after deploying.
  if (iterations > PBKDF2_ITERATIONS) return null;
  const salt = fromBase64(saltText);
  const hash = fromBase64(hashText);
  if (!salt || !hash || salt.byteLength === 0 || hash.byteLength !== HASH_BYTES) return null;
  return { iterations, salt, hash };
}

/**
 * Derives with the stored salt and iterations and compares in constant time. An unreadable stored
 * hash still costs one derivation (against the dummy), so callers cannot be timed apart.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  const target = parsed ?? DUMMY;
  const candidate = await derive(password, target.salt, target.iterations);
  const same = crypto.subtle.timingSafeEqual(candidate, target.hash);
  return parsed !== null && same;
}

const DUMMY = parsePasswordHash(DUMMY_PASSWORD_HASH) as ParsedHash;
