import { beforeAll, describe, expect, it } from "vitest";
import { logIn, registration, signUp, type SignedUpUser } from "../helpers/auth";
import { countUsersByKey, makeAdmin, snapshotUsers, userRow } from "../helpers/db";
import { api, expectError, expectData, BAD_PAGING } from "../helpers/http";
import { UserViewSchema, UserPageSchema, UserSchema } from "../../src/routes/users/users.schemas";

// docs/security.md A2-A5 (user-scoped rows) for users; A1 and A6 are in the todos tests.
let alice: SignedUpUser;
let bob: SignedUpUser;
let admin: SignedUpUser;

const FULL_FIELDS = [
  "age",
  "createdAt",
  "email",
  "emailVerified",
  "id",
  "name",
  "pendingEmail",
  "role",
  "updatedAt",
  "username",
];

beforeAll(async () => {
  alice = await signUp({ age: 31 });
  bob = await signUp();
  admin = await signUp();
  await makeAdmin(admin.userId);
});

/** One page of two users, as the admin sees it. */
const usersPage = async (n: number) =>
  expectData(await api(`/api/users?page=${n}&pageSize=2`, { token: admin.token }), 200, UserPageSchema).items;

describe("GET /api/users/:id", () => {
  it("shows yourself the full profile, never the password hash", async () => {
    const res = await api(`/api/users/${alice.userId}`, { token: alice.token });
    const user = expectData(res, 200, UserViewSchema);
    expect(Object.keys(user).toSorted()).toEqual(FULL_FIELDS);
    expect(user).toMatchObject({ id: alice.userId, age: 31, role: "user" });
    expect(res.text).not.toMatch(/password|pbkdf2|usernameKey/i);
  });

  it("A5: answers another user's id 404, as an id that does not exist (nothing of them shown)", async () => {
    const res = await api(`/api/users/${alice.userId}`, { token: bob.token });
    expectError(res, 404, "User not found");
    expect(res.text).not.toContain(alice.username);
  });

  it("shows admins the full profile of anyone", async () => {
    const res = await api(`/api/users/${alice.userId}`, { token: admin.token });
    expect(Object.keys(expectData(res, 200, UserViewSchema)).toSorted()).toEqual(FULL_FIELDS);
  });

  it("V6: odd ids are 400, a well-formed unknown id is 404", async () => {
    for (const id of [
      "abc",
      "-1",
      "0",
      "1.5",
      "1e3",
      "9007199254740993",
      "18446744073709551616",
      "01",
      "%20",
    ]) {
      expectError(await api(`/api/users/${id}`, { token: alice.token }), 400);
    }
    expectError(await api("/api/users/9007199254740991", { token: alice.token }), 404, "User not found");
  });
});

describe("GET /api/users", () => {
  it("A5: lists a user who is not an admin alone, with the full profile; admins page every user by id", async () => {
    const res = await api("/api/users?page=1&pageSize=100", { token: alice.token });
    const mine = expectData(res, 200, UserPageSchema);
    expect(mine).toMatchObject({ page: 1, pageSize: 100, total: 1, totalPages: 1 });
    expect(mine.items.map((u) => u.id)).toEqual([alice.userId]);
    expect(Object.keys(mine.items[0]!).toSorted()).toEqual(FULL_FIELDS);
    expect(res.text).not.toContain(bob.username);

    const asAdmin = await api("/api/users?page=1&pageSize=100", { token: admin.token });
    const { items, total, totalPages } = expectData(asAdmin, 200, UserPageSchema);
    expect(total).toBeGreaterThanOrEqual(3);
    expect(totalPages).toBe(Math.ceil(total / 100));
    const ids = items.map((u) => u.id);
    expect(ids).toEqual(ids.toSorted((a, b) => a - b));
    for (const item of items) expect(Object.keys(item).toSorted()).toEqual(FULL_FIELDS);
  });

  it("defaults to page 1 of 20; a page past the end is empty", async () => {
    const res = await api("/api/users", { token: alice.token });
    expect(expectData(res, 200, UserPageSchema)).toMatchObject({ page: 1, pageSize: 20 });
    const far = await api("/api/users?page=1000000000", { token: alice.token });
    expect(expectData(far, 200, UserPageSchema).items).toEqual([]);
  });

  it("pages do not overlap", async () => {
    const [first, second] = await Promise.all([usersPage(1), usersPage(2)]);
    const ids = [...first, ...second].map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(first).toHaveLength(2);
  });

  it("V7: bad paging is 400", async () => {
    for (const query of BAD_PAGING) {
      expectError(await api(`/api/users?${query}`, { token: alice.token }), 400);
    }
  });
});

describe("POST /api/users (create)", () => {
  it("admins create users, with a role, who can then log in", async () => {
    const input = registration();
    const res = await api("/api/users", {
      method: "POST",
      token: admin.token,
      json: { ...input, role: "admin" },
    });
    const user = expectData(res, 201, UserSchema);
    expect(Object.keys(user).toSorted()).toEqual(FULL_FIELDS);
    expect(user).toMatchObject({ username: input.username, role: "admin" });
    expect(await logIn(input.username, input.password)).toMatch(/\./);
    const plain = await api("/api/users", { method: "POST", token: admin.token, json: registration() });
    expect(expectData(plain, 201, UserSchema).role).toBe("user");
  });

  it("A4: a non-admin gets 403 and no row is written", async () => {
    const input = registration();
    const before = await snapshotUsers();
    const res = await api("/api/users", {
      method: "POST",
      token: alice.token,
      json: { ...input, role: "admin" },
    });
    expectError(res, 403, "Admin role required");
    expect(await snapshotUsers()).toEqual(before);
    expect(await countUsersByKey(input.username.toLowerCase())).toBe(0);
  });

  it("409 for a taken username or email", async () => {
    const taken = registration({
      username: alice.username.toUpperCase(),
      email: `${crypto.randomUUID()}@example.test`,
    });
    expectError(
      await api("/api/users", { method: "POST", token: admin.token, json: taken }),
      409,
      /username/,
    );
    const email = (await userRow(alice.userId))?.email as string;
    const dupEmail = registration({ email: email.toUpperCase() });
    expectError(
      await api("/api/users", { method: "POST", token: admin.token, json: dupEmail }),
      409,
      /email/,
    );
  });

  it("bad input is 400 and writes nothing", async () => {
    const before = await snapshotUsers();
    for (const json of [
      {},
      { ...registration(), role: "root" },
      { ...registration(), id: 5 },
      { ...registration(), password: "short" },
      { ...registration(), username: 1 },
      { ...registration(), extra: true },
    ]) {
      expectError(await api("/api/users", { method: "POST", token: admin.token, json }), 400);
    }
    for (const init of [
      { headers: { "Content-Type": "application/json" }, body: "{" },
      { headers: { "Content-Type": "text/plain" }, body: JSON.stringify(registration()) },
      { body: JSON.stringify(registration()) },
    ]) {
      expectError(await api("/api/users", { method: "POST", token: admin.token, ...init }), 400);
    }
    expect(await snapshotUsers()).toEqual(before);
  });
});
