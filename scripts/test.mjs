// `npm test`: lanes of vitest runs side by side. vitest runs projects one after another, and much of
// each project's time is waiting (on servers, sockets, timers), so on a 2-core machine the lanes take
// about as long as the longest alone: the workerd projects (workers, workers-owned, workers-demo);
// the fuzzer (workers-fuzz); the e2e project (real clients against `wrangler dev --local`), then with
// TEST_BROWSER=1 (as CI sets) the browser tests (vitest.browser.config.ts). The other lanes' output
// follows the first's. With arguments (`npm test -- test/api/todos.test.ts`, `npm test -- --project
// e2e`), one `vitest run` with those arguments.
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
    child.on("close", (code, signal) => resolve(signal ? 1 : (code ?? 1))),
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
  /** Runs each step's vitest after the one before; resolves with every run and its exit code. */
  const lane = async (...steps) => {
    const done = [];
    for (const args of steps) {
      const run = vitest(args, true);
      done.push([run, await run.exited]);
    }
    return done;
  };
  const workerd = vitest(["--project", "workers", "--project", "workers-owned", "--project", "workers-demo"]);
  // e2e and the browser tests one after the other: both start several servers, each a CPU burst.
  const browser = process.env.TEST_BROWSER === "1" ? [["-c", "vitest.browser.config.ts"]] : [];
  const others = [lane(["--project", "workers-fuzz"]), lane(["--project", "e2e"], ...browser)];
  const codes = [await workerd.exited];
  for (const [run, code] of (await Promise.all(others)).flat()) {
    process.stdout.write("\n");
    run.release();
    codes.push(code);
  }
  process.exitCode = codes.find((code) => code !== 0) ?? 0;
}
