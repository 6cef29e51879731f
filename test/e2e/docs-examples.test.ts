// Every shell example of README.md and the guide (docs/), run in document order against one
// `wrangler dev --local`, as a reader pastes them into one terminal: each block sees the variables of
// the blocks before it, `http://localhost:8787` is this server, and every curl call must answer the
// status its text shows. Conventions: test/e2e/docs/shell-blocks.ts and docs/development.md.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUIDE_PAGES } from "../../scripts/lib/guide.mjs";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { sharedWorker } from "./shared-worker";
import { emailSentTo, resetLinkIn } from "../helpers/dev-mailbox";
import { runBlock } from "./docs/run-block";
import { placeholders, shellBlocks, type ShellBlock } from "./docs/shell-blocks";

const blocks = ["README.md", ...GUIDE_PAGES].flatMap((file) =>
  shellBlocks(file, readFileSync(join(ROOT, file), "utf8")),
);

// The tools the examples use; .ci/run installs them when the machine lacks one.
const missing = ["curl", "jq"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);

/** The `token` of the link in the last e-mail with `subject` to `to`. */
async function tokenIn(url: string, to: string, subject: string): Promise<string> {
  const link = resetLinkIn((await emailSentTo(url, to, subject)).text);
  return new URL(link.replace("#/", "")).searchParams.get("token")!;
}

/** Values a reader copies from somewhere other than an earlier answer. */
const FILL: Record<string, (url: string) => Promise<string>> = {
  "<token from the e-mail>": async (url) => tokenIn(url, "grace@example.com", "Reset your password"),
  "<token from the confirmation e-mail>": async (url) =>
    tokenIn(url, "grace.hopper@example.com", "Confirm your new e-mail address"),
  "<token from the invitation e-mail>": async (url) =>
    tokenIn(url, "katherine@example.com", "Join Research lab"),
};

/** A file of `size` bytes that starts like its kind. */
const sized = (size: number, head: string) =>
  Buffer.concat([Buffer.from(head), Buffer.alloc(size - head.length, 46)]);

const worker = sharedWorker();
let dir: string;
beforeAll(async () => {
  if (missing.length > 0) return;
  dir = mkdtempSync(join(tmpdir(), "docs-examples-"));
  mkdirSync(join(dir, "work"));
  // The files the examples upload, as a reader has them.
  writeFileSync(join(dir, "work", "q3.pdf"), sized(48_213, "%PDF-1.7\n"));
  writeFileSync(join(dir, "work", "payslip.pdf"), sized(2_048, "%PDF-1.7\n"));
  writeFileSync(join(dir, "work", "notes.md"), "# Notes\n\nCall the bank before Friday.\n");
  writeFileSync(join(dir, "work", "holiday.mp4"), sized(6 * 1024 * 1024 + 1_000, "\0\0\0 ftypisom"));
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function prepare(block: ShellBlock): Promise<string> {
  const { host } = new URL(worker.url);
  let code = block.code
    .replaceAll("http://localhost:8787", worker.url)
    .replaceAll("ws://localhost:8787", `ws://${host}`);
  for (const placeholder of new Set(placeholders(code))) {
    const fill = FILL[placeholder];
    if (!fill)
      throw new Error(`${placeholder}: set it from an earlier step, or teach FILL how a reader gets it`);
    code = code.replaceAll(placeholder, await fill(worker.url));
  }
  return code;
}

function check(block: ShellBlock, run: Awaited<ReturnType<typeof runBlock>>): string[] {
  const problems: string[] = [];
  const where = (line: number) => `${block.file}:${block.line + line}`;
  for (const statement of block.curls)
    if (statement.status === null)
      problems.push(`${where(statement.from)}: curl shows no status (# 200 ...)`);
  for (const call of run.calls) {
    const statement = block.curls.find((s) => call.line >= s.from && call.line <= s.to);
    if (!statement) problems.push(`${where(call.line)}: a curl call outside any statement the test knows`);
    else if (call.exit !== 0) problems.push(`${where(call.line)}: curl exited ${call.exit}`);
    else if (statement.status !== null && call.status !== statement.status)
      problems.push(`${where(call.line)}: answered ${call.status}, the text shows ${statement.status}`);
  }
  if (run.calls.length < block.curls.length)
    problems.push(`${block.curls.length} curl commands, ${run.calls.length} ran`);
  if (run.exit !== 0) problems.push(`the block exited ${run.exit}`);
  return problems;
}

describe.skipIf(missing.length > 0)(
  `the shell examples of the README and docs/ (needs ${missing.join(", ") || "curl, jq"})`,
  () => {
    for (const block of blocks) {
      const name = `${block.file}:${block.line}`;
      if (block.skip !== null) {
        it.skip(`${name} (skipped: ${block.skip})`, () => {});
        continue;
      }
      it(name, async () => {
        const run = await runBlock(dir, await prepare(block));
        const problems = check(block, run);
        expect(
          problems,
          `${problems.join("\n")}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`,
        ).toEqual([]);
      });
    }
  },
);
