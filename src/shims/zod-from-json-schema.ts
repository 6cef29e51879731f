// zod's z.fromJSONSchema() builds a zod schema from JSON Schema; only the Agents SDK's MCP client
// called it (for outside servers' tools), and that client is a stand-in here (mcp-client-manager.ts).
// drizzle-zod and zod-to-openapi take zod's whole namespace, which keeps every export in the bundle,
// so the build (scripts/build-worker.mjs) swaps zod's module for this one. The name is the one zod
// exports.

export function fromJSONSchema(): never {
  throw new Error("zod's fromJSONSchema is not bundled in this Worker: nothing here converts JSON Schema");
}
