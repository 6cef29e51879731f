/// <reference types="node" />
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grantSql, usernameKeyOf } from "../../scripts/admin-grant.mjs";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { sharedWorker } from "./shared-worker";

const worker = sharedWorker();

function grant(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, "scripts", "admin-grant.mjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
}

async function register(username: string) {
  const res = await fetch(`${worker.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username,
      password: "a long enough password",
      name: "Operator Test",
      email: `${username.toLowerCase()}@example.test`,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { userId: number; token: string } }).data;
}

async function roleOf(user: { userId: number; token: string }) {
  const res = await fetch(`${worker.url}/api/users/${user.userId}`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  return ((await res.json()) as { data: { role: string } }).data.role;
}

describe("npm run admin:grant", () => {
  it("promotes the named user (matched ignoring case and width) and says so", async () => {
    const username = `Op_${randomUUID().slice(0, 8)}`;
    const user = await register(username);
    expect(await roleOf(user)).toBe("user");

    const run = grant(`  ${username.toUpperCase()} `, "--persist-to", worker.persistTo);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${username} (id ${user.userId}) is now admin`);
    expect(await roleOf(user)).toBe("admin");
  });

  it("exits 3 and changes nothing for an unknown user", () => {
    const run = grant(`nobody_${randomUUID().slice(0, 8)}`, "--persist-to", worker.persistTo);
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/nothing changed/);
  });

  it("rejects names that cannot be usernames before running any SQL", () => {
    for (const name of ["x' OR 1=1 --", "ab", "a".repeat(33), "semi;colon"]) {
      const run = grant(name, "--persist-to", worker.persistTo);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/Not a valid username/);
    }
    expect(grant().status).toBe(2);
  });
});

describe("grant SQL", () => {
  it("keys names like the API (NFKC, lower-case) and quotes the literal", () => {
    expect(usernameKeyOf(" ａｄｍｉｎ ")).toBe("admin");
    expect(usernameKeyOf("a'b")).toBeNull();
    expect(grantSql("o'hara")).toContain("WHERE usernameKey = 'o''hara'");
  });
});
