// The shell examples of the README and the guide, as test/e2e/docs-examples.test.ts runs them.
// Conventions (docs/development.md, "Tested examples"):
// - every ```sh block runs, in document order, unless its info string says `sh skip: <reason>`;
// - every curl command shows the status it answers: a comment starting with the status, at the end of
//   one of the command's lines (`curl ... # 201`), or a comment line right above it (`# 404 ...`);
// - `<placeholder>`s are filled by the runner from its short table (values a reader copies from
//   elsewhere, such as an e-mail); everything else comes from shell variables set by earlier steps.

export interface CurlStatement {
  /** 1-based lines of the block, first and last, of the statement that calls curl. */
  from: number;
  to: number;
  /** The status the text shows, or null when it shows none. */
  status: number | null;
}

export interface ShellBlock {
  file: string;
  /** Line of the opening fence in the file. */
  line: number;
  code: string;
  skip: string | null;
  curls: CurlStatement[];
}

const FENCE = /^(\s*)```(\S*)\s*(.*)$/;
const SHELL = new Set(["sh", "bash", "shell"]);

/** The fenced shell blocks of a markdown file. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    if (SHELL.has(open[2]!)) {
      const info = open[3]!.trim();
      const skip = /^skip:\s*(.+)$/.exec(info)?.[1] ?? (info === "skip" ? "" : null);
      if (skip === "")
        throw new Error(`${file}:${i + 1}: a skipped block needs a reason (sh skip: <reason>)`);
      const code = body.join("\n");
      blocks.push({ file, line: i + 1, code, skip, curls: curlStatements(code) });
    }
    i = j;
  }
  return blocks;
}

/** Scans one line, carrying open parentheses and quotes over from the lines before it. */
function scan(line: string, state: { depth: number; quote: string | null }) {
  for (let k = 0; k < line.length; k++) {
    const ch = line[k]!;
    if (state.quote) {
      if (ch === state.quote) state.quote = null;
      else if (ch === "\\" && state.quote === '"') k++;
    } else if (ch === "'" || ch === '"') state.quote = ch;
    else if (ch === "#" && (k === 0 || /\s/.test(line[k - 1]!))) break;
    else if (ch === "(") state.depth++;
    else if (ch === ")") state.depth--;
  }
  return state;
}

const statusIn = (comment: string | undefined) => {
  const match = comment === undefined ? null : /^#\s*(\d{3})\b/.exec(comment.trim());
  return match ? Number(match[1]) : null;
};

/** Each statement that calls curl, with the status the text shows for it. */
export function curlStatements(code: string): CurlStatement[] {
  const lines = code.split("\n");
  const found: CurlStatement[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(#|$)/.test(lines[i]!)) continue;
    const from = i;
    const state = scan(lines[i]!, { depth: 0, quote: null });
    while (i + 1 < lines.length && (state.depth > 0 || state.quote || /\\\s*$/.test(lines[i]!)))
      scan(lines[++i]!, state);
    const statement = lines.slice(from, i + 1);
    if (!statement.some((line) => /(^|[\s($|;])curl\s/.test(line.replace(/\s#\s.*$/, "")))) continue;
    const trailing = statement.map((line) => statusIn(/\s(#\s*\d{3}\b.*)$/.exec(line)?.[1])).find((s) => s);
    const above = from > 0 ? statusIn(lines[from - 1]) : null;
    found.push({ from: from + 1, to: i + 1, status: trailing ?? above ?? null });
  }
  return found;
}

/** `<placeholders>` left in a block's commands (comments aside): each must be one the runner can fill. */
export function placeholders(code: string): string[] {
  const commands = code
    .split("\n")
    .map((line) => line.replace(/(^|\s)#.*$/, ""))
    .join("\n");
  return [...commands.matchAll(/<([a-z][a-z0-9 _-]*)>/gi)].map((m) => m[0]);
}
