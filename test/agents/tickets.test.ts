import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issueTicket, TICKET_TTL_SECONDS } from "../../src/auth/tickets";
import { signUp } from "../helpers/auth";
import { AUTH_ON, chatPath, counterPath, fetchWith, requestTicket, upgradeWith } from "../helpers/agents";
import { api, expectError } from "../helpers/http";
import { acceptSocket, freshName } from "../helpers/ws";

const withTicket = (path: string, ticket: string) => `${path}?ticket=${encodeURIComponent(ticket)}`;

describe("POST /api/agents/tickets", () => {
  it("answers 201 with a ticket that expires in 60 s", async () => {
    const alice = await signUp();
    const res = await requestTicket(alice.token, "chat-agent", `user-${alice.userId}`);
    expect(res.status).toBe(201);
    const { ticket, expiresAt } = res.body.data;
    expect(ticket.split(".")).toHaveLength(3);
    const seconds = (Date.parse(expiresAt) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(TICKET_TTL_SECONDS - 5);
    expect(seconds).toBeLessThanOrEqual(TICKET_TTL_SECONDS);
  });

  it("refuses a ticket for another user's chat (403) and a chat name without an owner (403)", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    expectError(await requestTicket(bob.token, "chat-agent", `user-${alice.userId}`), 403);
    expectError(await requestTicket(bob.token, "chat-agent", "lobby"), 403);
    expect((await requestTicket(bob.token, "counter-agent", "lobby")).status).toBe(201);
  });

  it("needs a signed-in user (401)", async () => {
    const res = await api("/api/agents/tickets", {
      method: "POST",
      json: { agent: "counter-agent", name: "x" },
    });
    expectError(res, 401);
  });

  it.each([
    ["malformed JSON", "{"],
    ["an unknown agent", { agent: "nope", name: "x" }],
    ["a bad name", { agent: "counter-agent", name: "a b" }],
    ["a 10 KB name", { agent: "counter-agent", name: "a".repeat(10_240) }],
    ["a missing name", { agent: "counter-agent" }],
    ["an extra field", { agent: "counter-agent", name: "x", userId: 1 }],
    ["a wrong type", { agent: "counter-agent", name: 42 }],
  ])("answers 400 for %s", async (_label, body) => {
    const { token } = await signUp();
    const res = await api("/api/agents/tickets", {
      method: "POST",
      token,
      ...(typeof body === "string"
        ? { body, headers: { "Content-Type": "application/json" } }
        : { json: body }),
    });
    expectError(res, 400);
  });
});

describe("G17: connecting with a ticket (AGENTS_REQUIRE_AUTH on)", () => {
  it("upgrades with ?ticket= for its instance, and the agent never sees the ticket", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}`;
    const { ticket } = (await requestTicket(alice.token, "chat-agent", name)).body.data;
    const socket = await acceptSocket(await upgradeWith(AUTH_ON, withTicket(chatPath(name), ticket)));
    socket.close();

    const room = freshName();
    const forCounter = (await requestTicket(alice.token, "counter-agent", room)).body.data.ticket;
    const counter = await acceptSocket(await upgradeWith(AUTH_ON, withTicket(counterPath(room), forCounter)));
    counter.close();
    // Credentials are dropped from every forwarded URL (the counter echoes the URL it received).
    const echoed = await fetchWith(AUTH_ON, `${counterPath(room)}?ticket=${forCounter}&token=t&keep=1`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(((await echoed.json()) as { url: string }).url).toBe(
      `http://service.test${counterPath(room)}?keep=1`,
    );
  });

  it("refuses with 401 a ticket for another instance, another agent, or another user's chat", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const own = `user-${bob.userId}`;
    const { ticket } = (await requestTicket(bob.token, "chat-agent", own)).body.data;
    const room = (await requestTicket(bob.token, "counter-agent", own)).body.data.ticket;
    for (const [label, path] of [
      ["another instance", withTicket(chatPath(`${own}-other`), ticket)],
      ["another user's chat", withTicket(chatPath(`user-${alice.userId}`), ticket)],
      ["another agent", withTicket(counterPath(own), ticket)],
      ["a counter ticket on a chat", withTicket(chatPath(own), room)],
    ] as const) {
      const res = await upgradeWith(AUTH_ON, path);
      expect(res.status, label).toBe(401);
      expect(res.webSocket, label).toBeNull();
      expect(await res.json(), label).toEqual({
        success: false,
        error: { message: "Invalid or expired ticket" },
      });
    }
  });

  it("refuses an expired ticket, a tampered one, and a login token passed as a ticket", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}`;
    const target = { agent: "chat-agent", name };
    const identity = { id: alice.userId, username: alice.username, tokenVersion: 0 };
    const expired = await issueTicket(env.JWT_SECRET, identity, target, Math.floor(Date.now() / 1000) - 61);
    const fresh = (await requestTicket(alice.token, "chat-agent", name)).body.data.ticket;
    const tampered = `${fresh.slice(0, -4)}${fresh.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    for (const ticket of [expired.ticket, tampered, alice.token, "", "x.y.z"]) {
      expect((await upgradeWith(AUTH_ON, withTicket(chatPath(name), ticket))).status).toBe(401);
    }
  });

  it("G21: opens one socket, once: a used ticket is refused, even while its socket is open", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}`;
    const { ticket } = (await requestTicket(alice.token, "chat-agent", name)).body.data;
    const socket = await acceptSocket(await upgradeWith(AUTH_ON, withTicket(chatPath(name), ticket)));
    const again = await upgradeWith(AUTH_ON, withTicket(chatPath(name), ticket));
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({
      success: false,
      error: { message: "Ticket already used: ask for a new one" },
    });
    socket.close();
    await socket.closed;
    expect((await upgradeWith(AUTH_ON, withTicket(chatPath(name), ticket))).status).toBe(401);
    // Two upgrades racing with one fresh ticket: exactly one opens.
    const fresh = (await requestTicket(alice.token, "chat-agent", name)).body.data.ticket;
    const raced = await Promise.all(
      [1, 2].map(() => upgradeWith(AUTH_ON, withTicket(chatPath(name), fresh))),
    );
    expect(raced.map((res) => res.status).toSorted()).toEqual([101, 401]);
    for (const res of raced) if (res.status === 101) (await acceptSocket(res)).close();
  });

  it("refuses the ticket of a user deleted after it was issued", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}`;
    const { ticket } = (await requestTicket(alice.token, "chat-agent", name)).body.data;
    expect(
      (await api(`/api/users/${alice.userId}/delete`, { method: "POST", token: alice.token })).status,
    ).toBe(200);
    expect((await upgradeWith(AUTH_ON, withTicket(chatPath(name), ticket))).status).toBe(401);
  });

  it("is no login token: /api refuses a ticket as a bearer token", async () => {
    const alice = await signUp();
    const { ticket } = (await requestTicket(alice.token, "counter-agent", "x")).body.data;
    expectError(await api("/api/users", { token: ticket }), 401);
  });

  it("opens plain HTTP only with the Authorization header, never with a ticket", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}`;
    const { ticket } = (await requestTicket(alice.token, "chat-agent", name)).body.data;
    expect((await fetchWith(AUTH_ON, withTicket(`${chatPath(name)}/get-messages`, ticket))).status).toBe(401);
  });
});
