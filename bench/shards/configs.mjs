// wrangler configs for `npm run bench shards` only: the committed wrangler.jsonc with its DB_SHARD_<n>
// lines replaced by `shards` of them (none: every workspace on the one database `DB`, the layout before
// shards). Written beside wrangler.jsonc, whose paths are relative to its folder; git ignores them.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SHARD_LINE = /^\s*\{ "binding": "DB_SHARD_\d+".*\n/gm;

/** Writes the config with `shards` data databases; returns its path and a function that removes it. */
export function writeShardConfig(root, shards) {
  const text = readFileSync(join(root, "wrangler.jsonc"), "utf8");
  const indent = /^(\s*)\{ "binding": "DB_SHARD_0"/m.exec(text)?.[1];
  if (indent === undefined) throw new Error("wrangler.jsonc has no DB_SHARD_0 line to model the shards on");
  const lines = Array.from(
    { length: shards },
    (_, n) =>
      `${indent}{ "binding": "DB_SHARD_${n}", "database_name": "bench-shard-${n}", "migrations_dir": "migrations/shards" },\n`,
  ).join("");
  let placed = false;
  const generated = text.replace(SHARD_LINE, () => (placed ? "" : ((placed = true), lines)));
  const path = join(root, `wrangler.bench-${shards}-shards.jsonc`);
  writeFileSync(path, generated);
  return { path, remove: () => rmSync(path, { force: true }) };
}
