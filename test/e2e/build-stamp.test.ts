// scripts/lib/build-stamp.mjs: when the Worker's build (run by every `wrangler dev` start) may be skipped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { upToDate, writeStamp } from "../../scripts/lib/build-stamp.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with an input and an output, and a stamp of both written with `{ minify: true }`. */
function built() {
  const root = mkdtempSync(join(tmpdir(), "build-stamp-"));
  dirs.push(root);
  writeFileSync(join(root, "in.ts"), "export const a = 1;");
  writeFileSync(join(root, "out.js"), "const a=1;");
  const stamp = join(root, "dist", "stamp.json");
  writeStamp(root, stamp, ["in.ts", "out.js"], { minify: true });
  return { root, stamp };
}

describe("build stamp", () => {
  it("is up to date while every file it lists has the same bytes and the options are the same", () => {
    const { root, stamp } = built();
    expect(upToDate(root, stamp, { minify: true })).toBe(true);
    writeFileSync(join(root, "in.ts"), "export const a = 1;");
    expect(upToDate(root, stamp, { minify: true })).toBe(true);
  });

  it("is stale when an input or an output changed or went, when the options differ, or with no stamp", () => {
    const changedInput = built();
    writeFileSync(join(changedInput.root, "in.ts"), "export const a = 2;");
    expect(upToDate(changedInput.root, changedInput.stamp, { minify: true })).toBe(false);

    const goneOutput = built();
    rmSync(join(goneOutput.root, "out.js"));
    expect(upToDate(goneOutput.root, goneOutput.stamp, { minify: true })).toBe(false);

    const otherOptions = built();
    expect(upToDate(otherOptions.root, otherOptions.stamp, { minify: false })).toBe(false);

    const none = built();
    rmSync(none.stamp);
    expect(upToDate(none.root, none.stamp, { minify: true })).toBe(false);
  });
});
