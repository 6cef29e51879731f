import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_DIR, TYPES_ARGS } from "../../scripts/lib/react-client.mjs";

describe("the React client's REST types", () => {
  it("match the committed openapi.json (after `npm run openapi`, run `npm run client:types`)", () => {
    const cli = join(CLIENT_DIR, "node_modules", "openapi-typescript", "bin", "cli.js");
    const result = spawnSync(process.execPath, [cli, ...TYPES_ARGS, "--check"], {
      cwd: CLIENT_DIR,
      encoding: "utf8",
    });
    expect(result.status, result.stderr + result.stdout).toBe(0);
  });
});
