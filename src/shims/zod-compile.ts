// zod's z.compile() generates each parser as code and evaluates it with `new Function`, which Workers
// refuse while handling a request, so there it hands every schema back unchanged, on the runtime
// parser; nothing here calls it. drizzle-zod and zod-to-openapi take zod's whole namespace, which
// keeps every export in the bundle, so the build (scripts/build-worker.mjs) swaps zod's module for
// this one, which answers as zod does in a request. The names are those zod exports.

const NO_CODE_GENERATION =
  "generated code failed to evaluate: Workers do not allow code generation from strings";

/** @internal What a generated parser returns on invalid input. */
export const INVALID = Symbol.for("zod.compile.invalid");

export class ZodCompileAsyncError extends Error {
  constructor(message = "z.compile does not support async refinements, transforms, or checks") {
    super(message);
    this.name = "ZodCompileAsyncError";
  }
}

export class ZodCompileUnsupportedError extends Error {
  constructor(
    feature: string,
    readonly islandable = true,
  ) {
    super(`z.compile does not support ${feature}; this schema must use the runtime parser`);
    this.name = "ZodCompileUnsupportedError";
  }
}

/** The schema itself, on the runtime parser, as zod's compile() returns it where it cannot evaluate code. */
export function compile<T>(schema: T, options?: { strict?: boolean }): T {
  if (options?.strict) throw new ZodCompileUnsupportedError(`this schema (${NO_CODE_GENERATION})`);
  return schema;
}

export function compileFn(): never {
  throw new ZodCompileUnsupportedError(`this schema (${NO_CODE_GENERATION})`);
}

export function withParser(): never {
  throw new Error("zod's withParser is not bundled in this Worker: nothing here installs generated parsers");
}
