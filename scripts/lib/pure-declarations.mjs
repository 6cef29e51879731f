// Top-level values in dependencies that this Worker may never read, made droppable by the bundler.
// esbuild keeps any top-level call it cannot prove free of side effects, used or not: the AI SDK's UI
// message schemas (for clients), the MCP server's spec-type registry, which builds a guard for every
// protocol schema. Wrapping such a declaration as `const X = /* @__PURE__ */ (() => (init))()` changes
// nothing when X is read (it is evaluated at the same point) and lets esbuild drop it when nothing is.
// The build (scripts/build-worker.mjs) and the tests in workerd (vitest.config.ts) both apply this.

/**
 * By a package's own file: `schemas` wraps every top-level `const` built by zod (`z.…`, `lazySchema(…)`,
 * `withJsonValueCheck(…)`), `names` the named ones, `rewrites` replaces exact text first. Each must
 * match, so a dependency's update that renames one fails the build instead of keeping it whole.
 */
export const PURE_DECLARATIONS = {
  "ai/dist/index.js": { schemas: /^(z|z\$1|lazySchema|withJsonValueCheck)\b/ },
  "@modelcontextprotocol/server/dist/src-DdvbAHrR.mjs": {
    // The registry (`specTypeSchemas`, `isSpecType`) is filled by top-level loops: they move into the
    // first's initializer, which the second reads, so either keeps both.
    rewrites: [
      [
        "for (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);\nfor (const [key, schema] of Object.entries(authSchemas)) register(key, schema);\n",
        "",
      ],
      [
        "const specTypeSchemas = Object.freeze(_specTypeSchemas);",
        "const specTypeSchemas = (() => {\n\tfor (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);\n\tfor (const [key, schema] of Object.entries(authSchemas)) register(key, schema);\n\treturn Object.freeze(_specTypeSchemas);\n})();",
      ],
      [
        "const isSpecType = Object.freeze(_isSpecType);",
        "const isSpecType = (specTypeSchemas, Object.freeze(_isSpecType));",
      ],
    ],
    // A table describing its request validation (codes, rationale) that no code reads.
    names: ["specTypeSchemas", "isSpecType", "INBOUND_VALIDATION_LADDER"],
  },
  // The protocol's schemas, of which the server reads those of the messages it handles.
  "@modelcontextprotocol/core/dist/schemas-DscsoNZN.mjs": { schemas: /^z\b/ },
  "@modelcontextprotocol/core/dist/auth-UMQCo-ad.mjs": { schemas: /^z\b/ },
};

/** The package file `path` (anything up to its last `node_modules/`) as PURE_DECLARATIONS keys it. */
export const packageFile = (path) => path.replaceAll("\\", "/").split("/node_modules/").at(-1);

/** `source` of package file `file` with the declarations of its entry (PURE_DECLARATIONS') wrapped. */
export function withPureDeclarations(file, source, entry = PURE_DECLARATIONS[file]) {
  let text = source;
  for (const [from, to] of entry.rewrites ?? []) {
    if (!text.includes(from)) throw new Error(`${file}: text to rewrite not found: ${from.slice(0, 60)}`);
    text = text.replace(from, to);
  }
  const wanted = new Set(entry.names ?? []);
  let wrapped = 0;
  const out = [];
  let at = 0;
  const declaration = /^const ([\w$]+) = /gm;
  for (let match; (match = declaration.exec(text));) {
    const [head, name] = match;
    const init = match.index + head.length;
    if (!wanted.delete(name) && !(entry.schemas && entry.schemas.test(text.slice(init, init + 40)))) continue;
    const end = statementEnd(text, init, `${file}: ${name}`);
    out.push(text.slice(at, init), `/* @__PURE__ */ (() => (${text.slice(init, end)}))()`);
    at = end;
    declaration.lastIndex = end;
    wrapped++;
  }
  if (wanted.size) throw new Error(`${file}: declarations not found: ${[...wanted].join(", ")}`);
  if (entry.schemas && !wrapped) throw new Error(`${file}: no top-level zod schema found`);
  out.push(text.slice(at));
  return out.join("");
}

const OPEN = { "(": ")", "[": "]", "{": "}" };
// After these (or at the start), a `/` starts a regular expression rather than a division.
const BEFORE_REGEX = new Set([
  "",
  "(",
  ",",
  "=",
  ":",
  "[",
  "!",
  "&",
  "|",
  "?",
  "{",
  "}",
  ";",
  "+",
  "-",
  "*",
  "%",
  "<",
  ">",
  "~",
  "^",
]);

/**
 * The index of the `;` ending the expression that starts at `from`: brackets, strings, template
 * literals, comments and regular expressions skipped. Throws on a second declarator (`const a = 1, b`),
 * which a wrapper would turn into an assignment.
 */
function statementEnd(text, from, what) {
  const closers = [];
  let last = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      i = text.indexOf("\n", i);
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2) + 1;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === '"' || c === "'") i = skipString(text, i, c);
    else if (c === "`") i = skipTemplate(text, i);
    else if (
      c === "/" &&
      (BEFORE_REGEX.has(last) || /\b(return|typeof|case|in|of)$/.test(text.slice(i - 8, i).trimEnd()))
    )
      i = skipRegex(text, i);
    else if (OPEN[c]) closers.push(OPEN[c]);
    else if (c === ")" || c === "]" || c === "}") {
      if (closers.pop() !== c) throw new Error(`${what}: unbalanced ${c} at ${i}`);
    } else if (!closers.length && c === ";") return i;
    else if (!closers.length && c === ",") throw new Error(`${what}: more than one declarator`);
    last = c;
  }
  throw new Error(`${what}: no end of statement`);
}

function skipString(text, i, quote) {
  for (i++; text[i] !== quote; i++) if (text[i] === "\\") i++;
  return i;
}

function skipTemplate(text, i) {
  for (i++; text[i] !== "`"; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "$" && text[i + 1] === "{") {
      let depth = 1;
      for (i += 2; depth; i++) {
        if (text[i] === "{") depth++;
        else if (text[i] === "}") depth--;
        else if (text[i] === "`") i = skipTemplate(text, i);
        else if (text[i] === '"' || text[i] === "'") i = skipString(text, i, text[i]);
      }
      i--;
    }
  }
  return i;
}

function skipRegex(text, i) {
  let inClass = false;
  for (i++; inClass || text[i] !== "/"; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "[") inClass = true;
    else if (text[i] === "]") inClass = false;
  }
  return i;
}
