import { env } from "cloudflare:workers";

const encoder = new TextEncoder();

export function b64url(input: string | Uint8Array): string {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

export function decodePart(part: string): any {
  const padded = part.replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))));
}

const text = (part: object | string) => (typeof part === "string" ? part : JSON.stringify(part));

const HASHES = { HS256: "SHA-256", HS384: "SHA-384", HS512: "SHA-512" } as const;

/** HMAC over `header.payload`; header and payload may be objects or raw JSON text. */
export async function craftToken(
  header: object | string,
  payload: object | string,
  { secret = env.JWT_SECRET, hmac = "HS256" as keyof typeof HASHES } = {},
): Promise<string> {
  const signingInput = `${b64url(text(header))}.${b64url(text(payload))}`;
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: HASHES[hmac] },
    false,
    ["sign"],
  );
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(signingInput)));
  return `${signingInput}.${b64url(signature)}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims our service issues for a user, for tests that tweak one of them. */
export function claimsFor(userId: number, username = "someone") {
  const iat = nowSeconds();
  return { sub: String(userId), iat, exp: iat + 3600, data: { userId: String(userId), username } };
}

export const HS256_HEADER = { alg: "HS256", typ: "JWT" };
