import { z } from "@hono/zod-openapi";
import { decode, sign, verify } from "hono/jwt";
import { derivedKey } from "../core/derived-keys";
import { ClaimsSchema, identityClaims, type TokenClaims, type TokenIdentity } from "./tokens";

/** A connect ticket replaces the login token in a WebSocket URL, so it lives only long enough to connect. */
export const TICKET_TTL_SECONDS = 60;
const ALG = "HS256";
// Tickets are signed with a key derived from JWT_SECRET for this purpose only: a ticket is never a
// valid login token, and a login token is never a valid ticket.
const KEY_PURPOSE = "agents-connect-ticket/v1";

export interface TicketTarget {
  agent: string;
  name: string;
}

// The target travels as the audience: one agent instance, checked on use.
const audience = ({ agent, name }: TicketTarget) => `agents/${agent}/${name}`;

// `jti` names the ticket, so the gate can record it as used (src/auth/used-tickets.queries.ts).
const TicketClaimsSchema = ClaimsSchema.extend({ aud: z.string(), jti: z.uuid() });

/** A verified ticket's identity claims and its id. */
export type TicketClaims = TokenClaims & { jti: string };

const ticketKey = (secret: string) => derivedKey(secret, KEY_PURPOSE);

/**
 * A ticket for `target`, carrying the same identity claims as the credential it was asked with (the
 * session or the API key), so every check that applies to that credential applies to the ticket too;
 * valid TICKET_TTL_SECONDS.
 */
export async function issueTicket(
  secret: string,
  user: TokenIdentity,
  target: TicketTarget,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<{ ticket: string; expiresAt: Date }> {
  const exp = nowSeconds + TICKET_TTL_SECONDS;
  const ticket = await sign(
    { ...identityClaims(user), iat: nowSeconds, exp, aud: audience(target), jti: crypto.randomUUID() },
    await ticketKey(secret),
    ALG,
  );
  return { ticket, expiresAt: new Date(exp * 1000) };
}

/**
 * The identity claims and id of a ticket we issued for exactly `target` and that has not expired, or
 * null. Whether it was already used is the gate's to check (spendTicket).
 */
export async function verifyTicket(
  secret: string,
  ticket: string,
  target: TicketTarget,
): Promise<TicketClaims | null> {
  try {
    // alg and typ pinned, exp/iat checked by hono, audience must name this very instance.
    const payload = await verify(ticket, await ticketKey(secret), {
      alg: ALG,
      typ: "JWT",
      aud: audience(target),
    });
    if (Object.keys(decode(ticket).header).some((field) => field !== "alg" && field !== "typ")) return null;
    const parsed = TicketClaimsSchema.safeParse(payload);
    if (!parsed.success || parsed.data.exp - parsed.data.iat > TICKET_TTL_SECONDS) return null;
    const { aud: _aud, ...claims } = parsed.data;
    return claims;
  } catch {
    return null;
  }
}
