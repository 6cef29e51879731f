// Declarations of dependencies wrapped so that the bundler can drop them when nothing reads them
// (scripts/lib/pure-declarations.mjs, applied by the build and by these tests' pool): the wrapper finds
// each declaration's end whatever its text holds, refuses what it cannot wrap safely, and the wrapped
// modules answer as before where the service, or anyone, reads them.
import { isSpecType, specTypeSchemas } from "@modelcontextprotocol/server";
import { validateUIMessages } from "ai";
import { describe, expect, it } from "vitest";
import { type PureDeclarationsEntry, withPureDeclarations } from "../../scripts/lib/pure-declarations.mjs";

const wrap = (source: string, entry: PureDeclarationsEntry) =>
  withPureDeclarations("pkg/index.js", source, entry);

describe("wrapping a declaration", () => {
  it("wraps the whole initializer: strings, templates, regular expressions and comments skipped", () => {
    const source = [
      "import { z } from 'zod';",
      "const kept = 1;",
      'const a = z.object({ s: z.string().regex(/;[)}]/), t: `;${"}"}`, q: ";)", // ;)',
      "\tr: /* ;} */ z.literal('x') }).describe(\"a;b\");",
      "const b = lazySchema(() => { return /;/.test(x) ? a : a; });",
      "export { a, b, kept };",
    ].join("\n");
    expect(wrap(source, { schemas: /^(z|lazySchema)\b/ }).split("\n")).toEqual([
      "import { z } from 'zod';",
      "const kept = 1;",
      'const a = /* @__PURE__ */ (() => (z.object({ s: z.string().regex(/;[)}]/), t: `;${"}"}`, q: ";)", // ;)',
      "\tr: /* ;} */ z.literal('x') }).describe(\"a;b\")))();",
      "const b = /* @__PURE__ */ (() => (lazySchema(() => { return /;/.test(x) ? a : a; })))();",
      "export { a, b, kept };",
    ]);
  });

  it("wraps the named declarations only, after the rewrites", () => {
    const source = "const a = f();\nconst b = g(a);\nrun(a);\n";
    const entry: PureDeclarationsEntry = { rewrites: [["run(a);\n", ""]], names: ["b"] };
    expect(wrap(source, entry)).toBe("const a = f();\nconst b = /* @__PURE__ */ (() => (g(a)))();\n");
  });

  it("refuses a second declarator, which the wrapper would turn into an assignment", () => {
    expect(() => wrap("const a = f(), b = 2;\n", { names: ["a"] })).toThrow(/more than one declarator/);
  });

  it("fails when a listed name, rewrite or any schema is missing (a dependency's update renamed it)", () => {
    expect(() => wrap("const a = f();\n", { names: ["a", "gone"] })).toThrow(/not found: gone/);
    expect(() => wrap("const a = f();\n", { rewrites: [["g();", ""]] })).toThrow(/not found: g\(\);/);
    expect(() => wrap("const a = f();\n", { schemas: /^z\b/ })).toThrow(/no top-level zod schema/);
  });
});

describe("the wrapped modules", () => {
  it("the MCP server's spec-type registry still holds every guard when read", () => {
    expect(Object.keys(specTypeSchemas)).toEqual(Object.keys(isSpecType));
    expect(Object.keys(specTypeSchemas)).toEqual(expect.arrayContaining(["CallToolResult", "OAuthTokens"]));
    expect(isSpecType.ContentBlock({ type: "text", text: "hi" })).toBe(true);
    expect(isSpecType.ContentBlock({ type: "text" })).toBe(false);
    expect(isSpecType.Tool({ name: "t", inputSchema: { type: "object" } })).toBe(true);
    expect(isSpecType.Tool({})).toBe(false);
  });

  it("the AI SDK's UI message schemas still validate messages when read", async () => {
    const good = [{ id: "1", role: "user" as const, parts: [{ type: "text" as const, text: "hi" }] }];
    await expect(validateUIMessages({ messages: good })).resolves.toEqual(good);
    const bad = [{ id: "1", role: "user", parts: [{ type: "text" }] }];
    await expect(validateUIMessages({ messages: bad })).rejects.toThrow();
  });
});
