// The Agents SDK's MCP client module builds a JSON Schema validator (a copy of @cfworker/json-schema,
// beside the one /mcp's server bundles) when it loads, for tool results of outside MCP servers. The
// client itself is a stand-in (mcp-client.ts): agents here connect to none, so nothing validates with
// it and the build (scripts/build-worker.mjs) swaps this subpath too. The SDK extends the class and
// constructs it; any use would throw.

export class CfWorkerJsonSchemaValidator {
  getValidator(): never {
    throw new Error("The MCP client's validator is not bundled: agents here do not connect to MCP servers");
  }
}
