// The D1 databases of a wrangler config and their migrations: the directory (`DB`, migrations/) and every
// data shard (`DB_SHARD_<n>`, migrations/shards/). They are read from the config, so a shard added there
// is created, migrated and served everywhere (npm run dev, npm test, npm run db:migrate:*, npm run deploy)
// with no other change.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { unstable_readConfig } from "wrangler";
import { shardNumber, shardSequenceStatements } from "./shard-sequences.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
export const DEFAULT_CONFIG = join(ROOT, "wrangler.jsonc");

/** Every D1 binding of the config: its binding, database name and migrations folder (absolute). */
export function d1Databases(config = DEFAULT_CONFIG) {
  return (unstable_readConfig({ config }).d1_databases ?? []).map((db) => ({
    binding: db.binding,
    name: db.database_name,
    migrationsDir: resolve(dirname(config), db.migrations_dir ?? "migrations"),
  }));
}

/** The arguments of `wrangler d1 migrations apply` for one binding. */
export function migrateArgs(binding, { remote = false, persistTo, config } = {}) {
  const args = ["d1", "migrations", "apply", binding, remote ? "--remote" : "--local"];
  if (persistTo) args.push("--persist-to", persistTo);
  if (config) args.push("-c", config);
  return args;
}

/**
 * The arguments of `wrangler d1 execute` that start a shard's ids in its own range
 * (scripts/lib/shard-sequences.mjs; a no-op the second time), or null for the directory.
 */
export function sequenceArgs(binding, { remote = false, persistTo, config } = {}) {
  const n = shardNumber(binding);
  if (n === null) return null;
  const sql = shardSequenceStatements(n).join("; ");
  const args = ["d1", "execute", binding, remote ? "--remote" : "--local", "--yes", "--command", sql];
  if (persistTo) args.push("--persist-to", persistTo);
  if (config) args.push("-c", config);
  return args;
}

const migrationFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(".sql"))
        .toSorted()
    : [];

// What `npm run dev` last applied to each local database, beside wrangler's own state: a start with
// nothing new to apply spends no wrangler process on it (each costs seconds of CPU). It lives in the
// state folder, so clearing the state clears it too.
const appliedFile = (persistTo) => join(persistTo, "v3", "d1", "applied-migrations.json");

function readApplied(persistTo) {
  try {
    return JSON.parse(readFileSync(appliedFile(persistTo), "utf8"));
  } catch {
    return {};
  }
}

/** Runs wrangler with its output kept; rejects with that output when it fails. */
function wrangler(args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) =>
      code === 0
        ? resolvePromise(output)
        : reject(new Error(`wrangler ${args.join(" ")} failed:\n${output}`)),
    );
  });
}

/**
 * Applies each local database's migrations, one after another: wrangler processes side by side on one
 * state folder fail on its shared SQLite files (SQLITE_BUSY). With `skipApplied`, a database whose
 * migrations folder is as it was at the last run is left alone.
 * Resolves with the migrations applied, by binding; `onOutput` is given each wrangler run's output.
 */
export async function migrateLocal({
  config = DEFAULT_CONFIG,
  persistTo,
  env = process.env,
  skipApplied = false,
  onOutput = () => {},
} = {}) {
  const state = persistTo ?? join(dirname(config), ".wrangler", "state");
  const applied = skipApplied ? readApplied(state) : {};
  const databases = d1Databases(config).map((db) => ({
    ...db,
    key: `${db.binding}:${db.name}`,
    files: migrationFiles(db.migrationsDir),
  }));
  const pending = databases.filter((db) => applied[db.key]?.join("\n") !== db.files.join("\n"));
  const counts = {};
  for (const db of pending) {
    const output = await wrangler(migrateArgs(db.binding, { persistTo, config }), env);
    onOutput(db.binding, output);
    // wrangler prints its table of pending migrations again after each one: count distinct names.
    counts[db.binding] = new Set(output.match(/\b\d{4}_[\w-]+\.sql\b/g) ?? []).size;
    // A shard whose tables were just made gets its id range (the statements keep a range once set).
    const sequences = sequenceArgs(db.binding, { persistTo, config });
    if (sequences && counts[db.binding] > 0) onOutput(db.binding, await wrangler(sequences, env));
  }
  if (skipApplied) {
    mkdirSync(dirname(appliedFile(state)), { recursive: true });
    const record = Object.fromEntries(databases.map((db) => [db.key, db.files]));
    writeFileSync(appliedFile(state), `${JSON.stringify(record, null, 2)}\n`);
  }
  return counts;
}

/** "21 to DB, 1 to each of DB_SHARD_0, DB_SHARD_1": the migrations just applied, in a line. */
export function describeApplied(counts) {
  const byCount = new Map();
  for (const [binding, n] of Object.entries(counts)) {
    if (n > 0) byCount.set(n, [...(byCount.get(n) ?? []), binding]);
  }
  return [...byCount]
    .map(
      ([n, bindings]) => `${n} to ${bindings.length === 1 ? bindings[0] : `each of ${bindings.join(", ")}`}`,
    )
    .join(", ");
}
