import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_DIR } from "../../scripts/lib/react-client.mjs";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";

describe("the React client's REST types", () => {
  it("are generated from the committed openapi.json (run `npm run client:types` after `npm run openapi`)", () => {
    const out = join(mkdtempSync(join(tmpdir(), "client-types-")), "schema.d.ts");
    const cli = join(CLIENT_DIR, "node_modules", "openapi-typescript", "bin", "cli.js");
    execFileSync(process.execPath, [cli, join(ROOT, "openapi.json"), "-o", out], { stdio: "pipe" });
    const committed = readFileSync(join(CLIENT_DIR, "src", "api", "schema.d.ts"), "utf8");
    expect(
      committed === readFileSync(out, "utf8"),
      "examples/react-client/src/api/schema.d.ts is stale",
    ).toBe(true);
  });
});
