// zod's compile() and fromJSONSchema() are stand-ins here (src/shims/zod-*.ts, swapped in by the build
// and by these tests' pool): compile() answers as zod's own does in a deployed Worker's request, where
// code generation from strings is refused (the pool allows it, so zod's own would compile here).
import { describe, expect, it } from "vitest";
import { z } from "zod";

describe("zod's stand-ins", () => {
  it("z.compile hands the schema back on the runtime parser, as zod does in a request", () => {
    const schema = z.object({ n: z.number() });
    const compiled = z.compile(schema);
    expect(compiled).toBe(schema);
    expect(compiled.parse({ n: 1 })).toEqual({ n: 1 });
    expect(compiled.safeParse({ n: "1" }).success).toBe(false);
    expect(() => z.compile(schema, { strict: true })).toThrow(z.ZodCompileUnsupportedError);
  });

  it("z.fromJSONSchema fails with a clear error", () => {
    expect(() => z.fromJSONSchema({ type: "string" })).toThrow(/fromJSONSchema is not bundled/);
  });
});
