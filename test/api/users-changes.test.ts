import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { logIn, registration, signUp, type SignedUpUser } from "../helpers/auth";
import { makeAdmin, snapshotUsers, userRow } from "../helpers/db";
import { api, expectError, expectData } from "../helpers/http";
import { UserSchema, DeletedUserSchema } from "../../src/routes/users/users.schemas";

// docs/security.md A2-A5 (user-scoped rows) for users; A1 and A6 are in the todos tests.
let alice: SignedUpUser;
let bob: SignedUpUser;
let admin: SignedUpUser;

beforeAll(async () => {
  alice = await signUp({ age: 31 });
  bob = await signUp();
  admin = await signUp();
  await makeAdmin(admin.userId);
});

const update = (id: number | string, json: unknown, token: string) =>
  api(`/api/users/${id}`, { method: "POST", json, token });
const remove = (id: number | string, token: string) =>
  api(`/api/users/${id}/delete`, { method: "POST", token });

describe("POST /api/users/:id (update)", () => {
  it("updates your own profile and answers the full user", async () => {
    const me = await signUp();
    const newName = `${me.username}-Renamed`;
    const res = await update(me.userId, { name: "New Name", age: 40, username: newName }, me.token);
    expect(expectData(res, 200, UserSchema)).toMatchObject({
      name: "New Name",
      age: 40,
      username: newName,
      role: "user",
    });
    const row = await userRow(me.userId);
    expect(row).toMatchObject({ usernameKey: newName.toLowerCase() });
    expect(row?.updatedAt).not.toBe(row?.createdAt);
    expect(expectData(await update(me.userId, { age: null }, me.token), 200, UserSchema).age).toBeNull();
    expect(await logIn(newName, me.password)).toMatch(/\./);
  });

  it("A2: a non-admin updating someone else gets 403 and the row is unchanged", async () => {
    const before = await snapshotUsers();
    for (const json of [{ name: "Hacked" }, { password: "new password 123" }, { email: "x@evil.test" }]) {
      expectError(await update(alice.userId, json, bob.token), 403);
    }
    expectError(await update(9_000_000, { name: "x" }, bob.token), 403);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("A3: a user setting their own role gets 403 and the role is unchanged", async () => {
    const me = await signUp();
    const before = await snapshotUsers();
    for (const role of ["admin", "user"]) {
      expectError(await update(me.userId, { role }, me.token), 403, "Admin role required");
    }
    expectError(await update(me.userId, { role: "admin", name: "x" }, me.token), 403);
    expect(await snapshotUsers()).toEqual(before);
    expect((await userRow(me.userId))?.role).toBe("user");
  });

  it("admins change anyone's profile and role; 404 for an unknown id", async () => {
    const target = await signUp();
    // The target's role is now in the gate's short-lived cache; the update must drop it.
    expectError(await api("/api/users", { method: "POST", token: target.token, json: registration() }), 403);
    const res = await update(target.userId, { role: "admin", name: "Promoted" }, admin.token);
    expect(expectData(res, 200, UserSchema)).toMatchObject({ role: "admin", name: "Promoted" });
    // A role change ends the target's sessions; signed in again, they act as an admin.
    expectError(await api("/api/users", { token: target.token }), 401, "Session ended: sign in again");
    const token = await logIn(target.username, target.password);
    const asAdmin = await api("/api/users", { method: "POST", token, json: registration() });
    expect(asAdmin.status).toBe(201);
    expectError(await update(9_000_000, { name: "x" }, admin.token), 404, "User not found");
  });

  it("changing your own password needs the current one; a wrong one is 403 and changes nothing", async () => {
    const me = await signUp();
    expectError(
      await update(me.userId, { password: "brand new password" }, me.token),
      400,
      /currentPassword/,
    );
    const before = await snapshotUsers();
    expectError(
      await update(
        me.userId,
        { password: "brand new password", currentPassword: "wrong password" },
        me.token,
      ),
      403,
      "Current password is incorrect",
    );
    expect(await snapshotUsers()).toEqual(before);
    expectError(await update(me.userId, { currentPassword: me.password }, me.token), 400);

    const ok = await update(
      me.userId,
      { password: "brand new password", currentPassword: me.password },
      me.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.text).not.toContain("brand new password");
    expectError(
      await api("/api/login", { method: "POST", json: { username: me.username, password: me.password } }),
      401,
    );
    expect(await logIn(me.username, "brand new password")).toMatch(/\./);
  });

  it("admins reset another user's password without the current one", async () => {
    const target = await signUp();
    expect((await update(target.userId, { password: "reset by admin 1" }, admin.token)).status).toBe(200);
    expect(await logIn(target.username, "reset by admin 1")).toMatch(/\./);
  });

  it("409 when the new username or email is taken; the row is unchanged", async () => {
    const me = await signUp();
    const before = await snapshotUsers();
    expectError(
      await update(me.userId, { username: alice.username.toUpperCase() }, me.token),
      409,
      /username/,
    );
    const email = (await userRow(alice.userId))?.email as string;
    expectError(await update(me.userId, { email, currentPassword: me.password }, me.token), 409, /email/);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("bad input is 400 and changes nothing", async () => {
    const before = await snapshotUsers();
    for (const json of [
      {},
      { id: 5 },
      { usernameKey: "x" },
      { name: 5 },
      { name: "" },
      { age: "40" },
      { username: "a b" },
      { email: "nope" },
      { role: "root" },
      { createdAt: "2000-01-01" },
      { name: "n".repeat(1_000_000) },
      [],
      null,
    ]) {
      expectError(await update(alice.userId, json, alice.token), 400);
    }
    for (const init of [
      { headers: { "Content-Type": "application/json" }, body: "{" },
      { headers: { "Content-Type": "text/plain" }, body: '{"name":"x"}' },
      { body: '{"name":"x"}' },
      {},
    ]) {
      const res = await api(`/api/users/${alice.userId}`, { method: "POST", token: alice.token, ...init });
      expectError(res, 400);
    }
    for (const id of ["abc", "-1", "0", "1.5", "1e3", "9007199254740993"]) {
      expectError(await update(id, { name: "x" }, alice.token), 400);
    }
    expectError(await update(alice.userId, { name: "n".repeat(2 * 1024 * 1024) }, alice.token), 413);
    expect(await snapshotUsers()).toEqual(before);
  });
});

describe("POST /api/users/:id/delete", () => {
  it("A2: a non-admin deleting someone else gets 403 and the row stays", async () => {
    const before = await snapshotUsers();
    expectError(await remove(alice.userId, bob.token), 403);
    expectError(await remove(9_000_000, bob.token), 403);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("deletes yourself: 200 { id }; todos and attachment metadata cascade; unrecorded R2 objects stay", async () => {
    const me = await signUp();
    // An object without a record (as every upload from before files were recorded): nothing says whose it is.
    const key = `files/${crypto.randomUUID()}-kept.txt`;
    await env.R2_BUCKET.put(key, "still here");
    const todo = await env.DB.prepare("INSERT INTO todos_table (userId, title) VALUES (?, 't') RETURNING id")
      .bind(me.userId)
      .first<{ id: number }>();
    await env.DB.prepare(
      "INSERT INTO todo_attachments_table (todoId, fileKey, filePath, fileSize, fileHash, fileName) VALUES (?, ?, ?, 10, 'etag', 'kept.txt')",
    )
      .bind(todo!.id, key, key)
      .run();

    const res = await remove(me.userId, me.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: me.userId,
        erasure: { objects: 0, pending: false, agents: { instances: 2, pending: false } },
      },
    });
    expect(await userRow(me.userId)).toBeNull();
    const left = await env.DB.batch([
      env.DB.prepare("SELECT COUNT(*) AS n FROM user_credentials_table WHERE userId = ?").bind(me.userId),
      env.DB.prepare("SELECT COUNT(*) AS n FROM todos_table WHERE userId = ?").bind(me.userId),
      env.DB.prepare("SELECT COUNT(*) AS n FROM todo_attachments_table WHERE todoId = ?").bind(todo!.id),
    ]);
    expect(left.map((r) => (r.results[0] as { n: number }).n)).toEqual([0, 0, 0]);
    expect(await (await env.R2_BUCKET.get(key))?.text()).toBe("still here");
    expectError(await api(`/api/users/${me.userId}`, { token: me.token }), 401);
  });

  it("admins delete anyone; 404 for an unknown id; odd ids 400", async () => {
    const target = await signUp();
    expect(expectData(await remove(target.userId, admin.token), 200, DeletedUserSchema)).toEqual({
      id: target.userId,
      erasure: { objects: 0, pending: false, agents: { instances: 2, pending: false } },
    });
    expectError(await remove(target.userId, admin.token), 404, "User not found");
    for (const id of ["abc", "-1", "0", "1.5", "1e3", "9007199254740993"]) {
      expectError(await remove(id, admin.token), 400);
    }
  });

  it("ignores a body and a GET on the delete path is 404", async () => {
    expectError(await api(`/api/users/${alice.userId}/delete`, { token: alice.token }), 404);
  });
});
