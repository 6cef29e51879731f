// What a build read and wrote, with a hash of each file's bytes: `wrangler dev` runs the Worker's build
// at every start (the test suites start eight), and a build whose files are all as the last one left
// them would write the same dist/.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A hash of each file's bytes (null for a missing file), keyed by its path under `root`. */
function hashFiles(root, paths) {
  return Object.fromEntries(
    paths.map((path) => {
      const full = join(root, path);
      const hash = existsSync(full) ? createHash("sha256").update(readFileSync(full)).digest("hex") : null;
      return [path, hash];
    }),
  );
}

/** Records `paths` (under `root`) as they are now, with the build's `options`, at `stampPath`. */
export function writeStamp(root, stampPath, paths, options) {
  mkdirSync(dirname(stampPath), { recursive: true });
  writeFileSync(stampPath, JSON.stringify({ options, files: hashFiles(root, [...new Set(paths)]) }));
}

/** Whether the stamp at `stampPath` was written with `options` and every file it lists is as it was. */
export function upToDate(root, stampPath, options) {
  if (!existsSync(stampPath)) return false;
  const stamp = JSON.parse(readFileSync(stampPath, "utf8"));
  if (JSON.stringify(stamp.options) !== JSON.stringify(options)) return false;
  const now = hashFiles(root, Object.keys(stamp.files));
  return Object.entries(stamp.files).every(([path, hash]) => now[path] === hash);
}
