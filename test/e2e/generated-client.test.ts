import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { sharedWorker } from "./shared-worker";

const DIR = join(ROOT, "test", "e2e", "generated-client");
const SCHEMA = join(DIR, "schema.d.ts");

function run(args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  expect(result.status, `${args.join(" ")}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

const worker = sharedWorker();

afterAll(async () => {
  rmSync(SCHEMA, { force: true });
});

describe("a client generated from the committed openapi.json", () => {
  it("typechecks without casts and runs register, upload, todo, list, download, user against wrangler dev", () => {
    // Default settings: what `npx openapi-typescript openapi.json -o schema.d.ts` gives a user.
    run([join(ROOT, "node_modules/openapi-typescript/bin/cli.js"), "openapi.json", "-o", SCHEMA]);
    run([join(ROOT, "node_modules/@typescript/native-preview/bin/tsgo"), "-p", join(DIR, "tsconfig.json")]);
    const out = run(["--experimental-strip-types", "--no-warnings", join(DIR, "client-flow.ts"), worker.url]);

    const seen = JSON.parse(out);
    expect(seen.upload.key).toMatch(/^reports\/[0-9a-f-]{36}-q3 report 文件\.pdf$/);
    expect(seen.upload).toMatchObject({ size: 17, contentType: "application/pdf" });
    expect(seen.todo).toEqual({
      title: "Send the report",
      description: "",
      completed: false,
      attachmentKeys: [seen.upload.key],
      attachmentNames: ["q3 report 文件.pdf"],
    });
    expect(seen.listedIds).toContain(seen.todoId);
    expect(seen.download.text).toBe("quarterly numbers");
    expect(seen.download.contentType).toBe("application/pdf");
    expect(seen.download.disposition).toContain("filename*=UTF-8''q3%20report%20%E6%96%87%E4%BB%B6.pdf");
    expect(seen.user.username).toBe(seen.username);
  });
});
