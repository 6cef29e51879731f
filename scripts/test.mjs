// `npm test`: the workerd projects (workers, workers-owned) and the e2e project (real clients against
// `wrangler dev --local`) in two vitest runs side by side. vitest runs its projects one after another on
// a 2-core machine, and e2e spends most of its time waiting on servers it starts: side by side, the
// suite takes about as long as the workerd projects alone. The e2e run's output follows the other's.
// With arguments (`npm test -- test/api/todos.test.ts`, `npm test -- --project e2e`), one `vitest run`
// with those arguments.
import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const given = process.argv.slice(2);

/** Runs vitest; resolves with its exit code. `quiet` keeps its output until `release()`. */
function vitest(args, quiet = false) {
  const child = spawn(process.execPath, [VITEST, "run", ...args], {
    cwd: ROOT,
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    env: quiet && process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env,
  });
  const held = [];
  let released = false;
  if (quiet) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      stream.on("data", (chunk) => (released ? out.write(chunk) : held.push([out, chunk])));
    }
  }
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1))),
  );
  return {
    exited,
    release() {
      released = true;
      for (const [out, chunk] of held.splice(0)) out.write(chunk);
    },
  };
}

if (given.length > 0) {
  process.exitCode = await vitest(given).exited;
} else {
  const workerd = vitest(["--project", "workers", "--project", "workers-owned"]);
  const e2e = vitest(["--project", "e2e"], true);
  const first = await workerd.exited;
  process.stdout.write("\n");
  e2e.release();
  const second = await e2e.exited;
  process.exitCode = first || second;
}
