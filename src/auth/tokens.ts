// zod itself, not @hono/zod-openapi's: every agent imports this at start-up (the credential re-check),
// and these claims are never documented, so the OpenAPI layer and hono's app stay on first use.
import { z } from "zod";
import { decode, sign, verify } from "hono/jwt";

export const TOKEN_TTL_SECONDS = 3600;
const ALG = "HS256";
const MIN_SECRET_BYTES = 32;
// Only what we sign ourselves; `kid`/`jku`/`jwk` or anything else marks a token we did not issue.
const ALLOWED_HEADER_FIELDS = new Set(["alg", "typ"]);

/** Thrown when JWT_SECRET is unusable: the app answers a generic 500 and logs this message once. */
export class JwtSecretError extends Error {
  constructor() {
    super("JWT_SECRET is missing or shorter than 32 bytes; refusing to sign or verify tokens");
    this.name = "JwtSecretError";
  }
}

/** The signing key, or JwtSecretError: a weak key is never used (fail closed). */
export function jwtSecret(env: Pick<Env, "JWT_SECRET">): string {
  const secret = env.JWT_SECRET;
  // A string of at least 32 UTF-16 units is at least 32 UTF-8 bytes: encode only the short ones.
  if (
    typeof secret !== "string" ||
    (secret.length < MIN_SECRET_BYTES && new TextEncoder().encode(secret).byteLength < MIN_SECRET_BYTES)
  ) {
    throw new JwtSecretError();
  }
  return secret;
}

// Importing the HMAC key costs more than the verification itself, so the isolate keeps the last one.
let lastKey: { secret: string; key: Promise<CryptoKey> } | undefined;

function hmacKey(secret: string): Promise<CryptoKey> {
  if (lastKey?.secret !== secret) {
    const raw = new TextEncoder().encode(secret);
    const key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    lastKey = { secret, key };
  }
  return lastKey.key;
}

const NumericDate = z.number().int().nonnegative();

/** Claims every accepted token carries; hono checks exp/nbf/iat only when present, so require them here. */
export const ClaimsSchema = z.object({
  sub: z.string(),
  iat: NumericDate,
  exp: NumericDate,
  nbf: z.number().optional(),
  // The user's token version at issue; tokens from before this claim existed count as version 0.
  ver: NumericDate.default(0),
  data: z.record(z.string(), z.unknown()).optional(),
  // The sign-in session a token belongs to: the token ends with it (logout, revoke, password change).
  sid: z.string().max(64).optional(),
  // On connect tickets asked for with an API key: the key, which must still be valid at connect.
  key: z.number().int().positive().optional(),
});

export type TokenClaims = z.infer<typeof ClaimsSchema>;

/** Who a token or ticket is for, and the credential it comes from (a session or, for tickets, an API key). */
export interface TokenIdentity {
  id: number;
  username: string;
  tokenVersion: number;
  sessionId?: string;
  apiKeyId?: number;
}

/**
 * The identity claims of every token and ticket: sub, data, `ver` (the user's token version, which
 * ends tokens without a session) and the credential's `sid` or `key`.
 */
export function identityClaims(user: TokenIdentity) {
  const userId = String(user.id);
  return {
    sub: userId,
    ver: user.tokenVersion,
    data: { userId, username: user.username },
    ...(user.sessionId !== undefined && { sid: user.sessionId }),
    ...(user.apiKeyId !== undefined && { key: user.apiKeyId }),
  };
}

/** A login token: the identity claims (with its session's `sid`), issued now and valid for TOKEN_TTL_SECONDS. */
export async function issueToken(
  secret: string,
  user: TokenIdentity,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  return sign(
    { ...identityClaims(user), iat: nowSeconds, exp: nowSeconds + TOKEN_TTL_SECONDS },
    await hmacKey(secret),
    ALG,
  );
}

// A client sends the same token on every request for up to an hour, so the isolate keeps what it
// verified (signature, header, claim types; all a function of token and secret) and only re-checks
// the clock. Revocation is not decided here: authenticate() compares the token version every time.
const VERIFIED_MAX = 1_000;
const verified = new Map<string, { secret: string; claims: TokenClaims }>();

/** The claims of a token we issued and that is still valid, or null for any failure. */
export async function verifyToken(
  secret: string,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<TokenClaims | null> {
  const known = verified.get(token);
  if (known?.secret === secret) {
    if (known.claims.exp > nowSeconds) return known.claims;
    verified.delete(token);
    return null;
  }
  const claims = await verifySignedToken(secret, token);
  if (claims) {
    // Maps iterate in insertion order, so the first key is the oldest entry.
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { secret, claims });
  }
  return claims;
}

async function verifySignedToken(secret: string, token: string): Promise<TokenClaims | null> {
  try {
    // alg pinned; typ must be JWT; hono rejects exp <= now, nbf > now and iat > now when present.
    const payload = await verify(token, await hmacKey(secret), { alg: ALG, typ: "JWT" });
    const { header } = decode(token);
    if (Object.keys(header).some((field) => !ALLOWED_HEADER_FIELDS.has(field))) return null;
    const claims = ClaimsSchema.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch {
    return null;
  }
}

/** `data.userId` as a positive integer, or null when absent or not numeric. */
export function userIdFromClaims(claims: TokenClaims): number | null {
  const raw = claims.data?.userId;
  if (typeof raw !== "string" || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
