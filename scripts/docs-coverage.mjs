// Moving text out of the README: what of an earlier README (a git revision) is no longer anywhere in the
// README, the guide (docs/) or BENCH.md. Prints its headings, curl commands and sentences that are gone,
// for a person to check that each was moved or rewritten on purpose. `node scripts/docs-coverage.mjs main`
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const rev = process.argv[2] ?? "HEAD";
const before = execFileSync("git", ["show", `${rev}:README.md`], { cwd: ROOT, encoding: "utf8" });
const files = ["README.md", "BENCH.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)];
const after = files.map((file) => readFileSync(join(ROOT, file), "utf8")).join("\n");

// Formatting aside: link targets, markdown marks, table padding, line breaks, heading levels.
const plain = (text) =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*`|#-]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
const haystack = plain(after);
const gone = (text) => !haystack.includes(plain(text));

const headings = before.replace(/```[\s\S]*?```/g, "").match(/^#{1,6} .+$/gm) ?? [];
const curls = (before.match(/^.*\bcurl\b.*$/gm) ?? []).filter((line) => !/^\s*#/.test(line));
const prose = before
  .replace(/```[\s\S]*?```/g, "")
  .split(/\n\s*\n/)
  .flatMap((paragraph) => paragraph.split(/(?<=[.:;])\s+(?=[A-Z`(*])/))
  .filter((sentence) => plain(sentence).length > 20);

let missing = 0;
for (const [kind, items] of [
  ["heading", headings],
  ["curl", curls],
  ["sentence", prose],
]) {
  for (const item of items.filter(gone)) {
    missing++;
    console.log(`${kind}: ${item.trim().slice(0, 200)}`);
  }
}
console.log(
  `${missing} of ${headings.length + curls.length + prose.length} pieces of ${rev}:README.md are gone.`,
);
