// /mcp's server (@modelcontextprotocol/server) picks its runtime shims by export condition; the workerd
// one brings a JSON Schema validator (a copy of @cfworker/json-schema, 21 KiB) that the server uses
// only for form elicitation results and `fromJsonSchema()`. The tools here declare zod schemas, which
// validate themselves, and never elicit, so the build (scripts/build-worker.mjs) swaps the shims for
// these. The server constructs the validator up front; any use would throw.

export class DefaultJsonSchemaValidator {
  getValidator(): never {
    throw new Error(
      "The MCP server's JSON Schema validator is not bundled: /mcp neither elicits nor takes JSON Schema tools",
    );
  }
}

/** The stdio transport's streams, which no Worker has (as the package's own workerd shim says). */
export const process = {
  get stdin(): never {
    throw new Error("StdioServerTransport is not supported in Workers: /mcp is Streamable HTTP");
  },
  get stdout(): never {
    throw new Error("StdioServerTransport is not supported in Workers: /mcp is Streamable HTTP");
  },
};
