// `npm run check`: every relative link of the README, the guide and the other markdown files points at a
// file that exists and, with a #fragment, at a heading of it (GitHub's anchors); every guide page exists
// and the README links it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { GUIDE_PAGES } from "./lib/guide.mjs";
import { headings } from "./lib/llms-txt.mjs";

const ROOT = join(import.meta.dirname, "..");
const FILES = [
  "README.md",
  "BENCH.md",
  "examples/react-client/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
].filter((file) => existsSync(join(ROOT, file)));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown) {
  const seen = new Map();
  return new Set(
    headings(markdown).map(({ text }) => {
      const base = text
        .replace(/`|\*\*|\[([^\]]*)\]\([^)]*\)/g, "$1")
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-");
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      return count === 0 ? base : `${base}-${count}`;
    }),
  );
}

/** Markdown links outside fenced blocks and inline code: [text](target). */
function links(markdown) {
  const found = [];
  let fenced = false;
  markdown.split("\n").forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const match of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g))
      found.push({ target: match[1], line: i + 1 });
  });
  return found;
}

const problems = [];
for (const page of GUIDE_PAGES)
  if (!existsSync(join(ROOT, page))) problems.push(`${page}: guide page missing`);
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
for (const page of GUIDE_PAGES)
  if (!readme.includes(`](${page}`)) problems.push(`README.md: no link to ${page}`);

for (const file of FILES) {
  const text = readFileSync(join(ROOT, file), "utf8");
  for (const { target, line } of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path, fragment] = target.split("#");
    const resolved = path ? join(dirname(join(ROOT, file)), decodeURIComponent(path)) : join(ROOT, file);
    const where = `${file}:${line}: ${target}`;
    if (!existsSync(resolved)) problems.push(`${where}: no such file`);
    else if (fragment !== undefined && resolved.endsWith(".md")) {
      if (!anchors(readFileSync(resolved, "utf8")).has(fragment))
        problems.push(`${where}: no heading #${fragment} in ${relative(ROOT, resolved)}`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`Links: ${FILES.length} markdown files checked.`);
