// Runs one shell block in bash as a reader would paste it, with the variables of the blocks before it,
// and records the status and exit code of every curl call with the line it came from.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CurlCall {
  line: number;
  status: number | null;
  exit: number;
}

export interface BlockRun {
  exit: number;
  stdout: string;
  stderr: string;
  calls: CurlCall[];
}

// Sourced before each block (BASH_ENV): the variables earlier blocks left, then curl wrapped to log
// each call's final status (from its verbose trace, which goes to a file: the reader's output is
// untouched) and the block's line (BASH_LINENO). On exit, the variables the block set are kept.
const PRELUDE = String.raw`
__docs_before=" $(compgen -v | tr '\n' ' ') "
[ -f "$DOCS_DIR/state.sh" ] && . "$DOCS_DIR/state.sh"
curl() {
  local trace="$DOCS_DIR/trace.$BASHPID" rc status="" line
  command curl -v --stderr "$trace" "$@"; rc=$?
  # Builtins only: a fork per call would cost more than the call.
  while IFS= read -r line; do
    case "$line" in
      "< HTTP/"*) status=\${line#"< HTTP/"* }; status=\${status%% *}; status=\${status%$'\r'} ;;
      "curl: "*) printf '%s\n' "$line" >&2 ;;
    esac
  done < "$trace"
  echo "\${BASH_LINENO[0]} \${status:-none} $rc" >> "$DOCS_DIR/calls.log"
  return $rc
}
__docs_keep() {
  local name
  for name in $(compgen -v); do
    case "$__docs_before" in *" $name "*) continue ;; esac
    case "$name" in __docs_*|BASH_*|FUNCNAME|PIPESTATUS|_) continue ;; esac
    declare -p "$name" 2>/dev/null
  done > "$DOCS_DIR/state.next" && mv "$DOCS_DIR/state.next" "$DOCS_DIR/state.sh"
}
trap __docs_keep EXIT
`.replaceAll("\\${", "${");

/** Runs `script` in `dir` (the reader's working folder), whose state files carry variables forward. */
export function runBlock(dir: string, script: string): Promise<BlockRun> {
  writeFileSync(join(dir, "prelude.sh"), PRELUDE);
  writeFileSync(join(dir, "block.sh"), `${script}\n`);
  writeFileSync(join(dir, "calls.log"), "");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [join(dir, "block.sh")], {
      cwd: join(dir, "work"),
      // A reader's shell, not the test runner's environment (worker-configuration.d.ts types the latter).
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: dir,
        LANG: "C.UTF-8",
        BASH_ENV: join(dir, "prelude.sh"),
        DOCS_DIR: dir,
      } as Record<string, string> as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // A block that hangs (a server that never answers): end it and whatever it started.
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const calls = readFileSync(join(dir, "calls.log"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((entry) => {
          const [line, status, exit] = entry.split(" ");
          return {
            line: Number(line),
            status: status === "none" ? null : Number(status),
            exit: Number(exit),
          };
        });
      resolve({ exit: code ?? -1, stdout, stderr, calls });
    });
  });
}
