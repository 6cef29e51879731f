import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes `contents` to `path` unless it already holds them: a file a running `wrangler dev` serves
 * or watches stays untouched when a build changes nothing in it.
 */
export function writeIfChanged(path, contents) {
  const bytes = typeof contents === "string" ? Buffer.from(contents) : contents;
  let current = null;
  try {
    current = readFileSync(path);
  } catch {
    // Not there yet.
  }
  if (current?.equals(bytes)) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}
