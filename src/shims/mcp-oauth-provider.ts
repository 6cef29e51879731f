// The Agents SDK keeps the OAuth state of outside MCP servers an agent connects to in this provider
// (`this.mcp` with OAuth); the agents here never connect to one (the MCP client manager is a stand-in
// too: src/shims/mcp-client-manager.ts), so the build (scripts/build-worker.mjs) swaps the SDK's
// module for this one. The SDK constructs it only while connecting, and otherwise tests `instanceof`.

export class DurableObjectOAuthClientProvider {
  constructor() {
    throw new Error("MCP OAuth is not bundled in this Worker: its agents do not connect to MCP servers");
  }

  clearServerStorage(): Promise<void> {
    return Promise.resolve();
  }
}
