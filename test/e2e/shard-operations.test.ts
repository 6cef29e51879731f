/// <reference types="node" />
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { d1Databases, describeApplied, migrateLocal } from "../../scripts/lib/d1-migrations.mjs";
import { deployPlan } from "../../scripts/lib/deploy-plan.mjs";
import { SHARD_ID_SPAN, shardSequenceStatements } from "../../scripts/lib/shard-sequences.mjs";
import { signUpAt } from "./sign-up";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { sharedWorker } from "./shared-worker";

// The operations find the shards in wrangler.jsonc: adding one is one line there, no script changes.

const SHARD_2 =
  '{ "binding": "DB_SHARD_2", "database_name": "workers-api-service-shard-2", "migrations_dir": "migrations/shards" },';

/** The committed wrangler.jsonc with one more shard line, in a folder of its own. */
function configWithThirdShard(): string {
  const text = readFileSync(join(ROOT, "wrangler.jsonc"), "utf8");
  const withShard = text.replace(/^(\s*)(\{ "binding": "DB_SHARD_1".*)$/m, `$1$2\n$1${SHARD_2}`);
  expect(withShard).not.toBe(text);
  const path = join(mkdtempSync(join(tmpdir(), "shard-config-")), "wrangler.jsonc");
  writeFileSync(path, withShard);
  return path;
}

/** A migrations folder's .sql files, in order (as npm run dev records them). */
const sqlIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .toSorted();

/** The deploy step that seeds shard `n`'s id sequences. */
const sequences = (n: number) => [
  "d1",
  "execute",
  `DB_SHARD_${n}`,
  "--remote",
  "--yes",
  "--command",
  shardSequenceStatements(n).join("; "),
];

describe("the shards of wrangler.jsonc", () => {
  it("a shard added in one line is migrated with the others, and created by deploy when missing", () => {
    const config = configWithThirdShard();
    const databases = d1Databases(config);
    expect(databases.map((db) => db.binding)).toEqual(["DB", "DB_SHARD_0", "DB_SHARD_1", "DB_SHARD_2"]);
    expect(databases.find((db) => db.binding === "DB_SHARD_2")?.migrationsDir).toBe(
      join(config, "..", "migrations", "shards"),
    );

    const existing = ["workers-api-service", "workers-api-service-shard-0", "workers-api-service-shard-1"];
    expect(deployPlan(databases, existing)).toEqual([
      ["d1", "create", "workers-api-service-shard-2", "--update-config=false"],
      ["d1", "migrations", "apply", "DB", "--remote"],
      ["d1", "migrations", "apply", "DB_SHARD_0", "--remote"],
      sequences(0),
      ["d1", "migrations", "apply", "DB_SHARD_1", "--remote"],
      sequences(1),
      ["d1", "migrations", "apply", "DB_SHARD_2", "--remote"],
      sequences(2),
      ["deploy"],
    ]);
  });

  it("a fresh account gets every database created and migrated before the code is deployed", () => {
    const plan = deployPlan(d1Databases(), []);
    expect(plan.slice(0, 3).map((step) => step.slice(0, 3))).toEqual([
      ["d1", "create", "workers-api-service"],
      ["d1", "create", "workers-api-service-shard-0"],
      ["d1", "create", "workers-api-service-shard-1"],
    ]);
    expect(plan.at(-1)).toEqual(["deploy"]);
  });

  it("npm run dev's start runs no wrangler for databases whose migrations it applied last time", async () => {
    const persistTo = mkdtempSync(join(tmpdir(), "applied-"));
    const record = Object.fromEntries(
      d1Databases().map((db) => [`${db.binding}:${db.name}`, sqlIn(db.migrationsDir)]),
    );
    mkdirSync(join(persistTo, "v3", "d1"), { recursive: true });
    writeFileSync(join(persistTo, "v3", "d1", "applied-migrations.json"), JSON.stringify(record));
    const outputs: string[] = [];
    const started = Date.now();
    const counts = await migrateLocal({ persistTo, skipApplied: true, onOutput: (b) => outputs.push(b) });
    expect(counts).toEqual({});
    expect(outputs).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a shard migrated by the scripts hands out ids from its own range", async () => {
    // The e2e server's databases were migrated by migrateLocal, as npm run dev and npm run seed migrate.
    const { url } = sharedWorker();
    const { token } = await signUpAt(url);
    const res = await fetch(`${url}/api/todos`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Where am I?" }),
    });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { id: number } }).data;
    expect(id).toBeGreaterThan(SHARD_ID_SPAN);
  });

  it("says in one line what it applied", () => {
    expect(describeApplied({ DB: 21, DB_SHARD_0: 1, DB_SHARD_1: 1, DB_SHARD_2: 0 })).toBe(
      "21 to DB, 1 to each of DB_SHARD_0, DB_SHARD_1",
    );
    expect(describeApplied({ DB: 0 })).toBe("");
  });
});
