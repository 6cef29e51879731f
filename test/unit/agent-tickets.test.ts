import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issueTicket, TICKET_TTL_SECONDS, verifyTicket } from "../../src/auth/tickets";
import { issueToken, verifyToken } from "../../src/auth/tokens";

const secret = env.JWT_SECRET;
const target = { agent: "chat-agent", name: "user-7" };
const now = () => Math.floor(Date.now() / 1000);

const ann = { id: 7, username: "ann", tokenVersion: 0 };

describe("connect tickets", () => {
  it("carry the login token's identity for exactly one instance", async () => {
    const issuedAt = now();
    const { ticket, expiresAt } = await issueTicket(secret, ann, target, issuedAt);
    expect(expiresAt.getTime() / 1000).toBe(issuedAt + TICKET_TTL_SECONDS);
    const login = await verifyToken(secret, await issueToken(secret, ann));
    const { iat: _iat, exp: _exp, ...identity } = login!;
    expect(await verifyTicket(secret, ticket, target)).toEqual({
      ...identity,
      iat: issuedAt,
      exp: issuedAt + TICKET_TTL_SECONDS,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // Each ticket is its own (the gate records its id when it is used), even within one second.
    const twin = await issueTicket(secret, ann, target, issuedAt);
    expect((await verifyTicket(secret, twin.ticket, target))!.jti).not.toBe(
      (await verifyTicket(secret, ticket, target))!.jti,
    );
    expect(await verifyTicket(secret, ticket, { ...target, name: "user-7-x" })).toBeNull();
    expect(await verifyTicket(secret, ticket, { ...target, agent: "counter-agent" })).toBeNull();
  });

  it("expire after 60 s", async () => {
    const edge = await issueTicket(secret, ann, target, now() - TICKET_TTL_SECONDS + 2);
    expect(await verifyTicket(secret, edge.ticket, target)).not.toBeNull();
    const old = await issueTicket(secret, ann, target, now() - TICKET_TTL_SECONDS);
    expect(await verifyTicket(secret, old.ticket, target)).toBeNull();
  });

  it("are never login tokens, and login tokens are never tickets", async () => {
    const { ticket } = await issueTicket(secret, ann, target);
    expect(await verifyToken(secret, ticket)).toBeNull();
    expect(await verifyTicket(secret, await issueToken(secret, ann), target)).toBeNull();
  });

  it("are bound to the secret", async () => {
    const { ticket } = await issueTicket(secret, ann, target);
    expect(await verifyTicket(`${secret}-rotated`, ticket, target)).toBeNull();
  });
});
