/// <reference types="node" />
// docs/tutorial.md shows real files: a block whose info string says `file=<path>` is that file in full,
// `excerpt=<path>` a part of it (the final newline aside). A change to one without the other fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";

const TUTORIAL = "docs/tutorial.md";
const FENCED = /^```\w+ (file|excerpt)=(\S+)\n([\s\S]*?)^```$/gm;
const blocks = [...readFileSync(join(ROOT, TUTORIAL), "utf8").matchAll(FENCED)].map(
  ([, kind, path, code]) => ({ kind, path: path!, code: code! }),
);

describe(`the files ${TUTORIAL} shows`, () => {
  it("shows at least the table, queries, schemas, routes, handlers, test and screen", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(9);
  });
  for (const { kind, path, code } of blocks) {
    it(`${kind} ${path}`, () => {
      const file = readFileSync(join(ROOT, path), "utf8");
      if (kind === "file") expect(code.trimEnd()).toBe(file.trimEnd());
      else expect(file).toContain(code);
    });
  }
});
