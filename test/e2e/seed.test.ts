/// <reference types="node" />
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo-data.mjs";
import { ROOT, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

// One server, as `npm run dev` runs: the seed's own wrangler dev (when none answers) would cost a second
// start; it is startWranglerDev itself, which every e2e test uses.
let worker: WranglerDev;
beforeAll(async () => {
  worker = await startWranglerDev();
});
afterAll(() => worker?.stop());

/** Runs `npm run seed -- ...args` (the script itself, on this Node 22); its exit code and output. */
function seed(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "seed.mjs"), ...args], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function get(url: string, path: string, token: string) {
  const res = await fetch(url + path, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: any }).data;
}

describe("npm run seed", () => {
  it("fills the running service's database, adds nothing the second time, and prints how to sign in", async () => {
    const first = await seed("--url", worker.url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Seeded: 5 todos, 3 files and 1 chat added to the demo account.");
    expect(first.stdout).toContain(`Sign in as ${DEMO.username}, password ${DEMO.password}`);

    const second = await seed("--url", worker.url);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("Already seeded");
    expect(second.stdout).toContain("nothing added");

    const login = await fetch(`${worker.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: DEMO.username, password: DEMO.password }),
    });
    expect(login.status).toBe(201);
    const { token, userId } = ((await login.json()) as { data: { token: string; userId: number } }).data;
    const todos = await get(worker.url, "/api/todos?pageSize=100", token);
    expect(todos.total).toBe(5);
    const files = await get(worker.url, "/api/files?limit=100", token);
    expect(files.items.map((f: { originalName: string }) => f.originalName).toSorted()).toEqual([
      "passport-scan.txt",
      "q3-report.csv",
      "welcome.md",
    ]);
    const chats = await get(worker.url, "/api/chats?limit=100", token);
    expect(chats.items.map((c: { title: string }) => c.title)).toEqual(["Plan the week"]);
    // Attachments point at the stored files.
    const withFile = todos.items.find((t: { title: string }) => t.title === "Send the Q3 report");
    const detail = await get(worker.url, `/api/todos/${withFile.id}`, token);
    expect(detail.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(["q3-report.csv"]);

    // A demo account whose password changed is left alone, saying why.
    const change = await fetch(`${worker.url}/api/users/${userId}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ password: "another password", currentPassword: DEMO.password }),
    });
    expect(change.status).toBe(200);
    const third = await seed("--url", worker.url);
    expect(third.code).toBe(1);
    expect(third.stderr).toContain(`A user "${DEMO.username}"`);
    expect(third.stderr).toContain("already exists with another password");
  });

  it("says so when nothing answers at --url", async () => {
    const run = await seed("--url", "http://127.0.0.1:9");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Nothing answers at http://127.0.0.1:9/health: start it with npm run dev.");
  });
});
