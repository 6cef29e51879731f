// Every Agent installs the SDK's MCP client manager (`this.mcp`, agents/dist/client-*.js, 12 KiB of
// gzip) as a lifecycle capability, for agents that connect to outside MCP servers; no agent here
// connects to one, so the build (scripts/build-worker.mjs) swaps the SDK's module for this one. It
// keeps what the Agent and AIChatAgent call on every agent: the storage schema at start, the server
// list read from storage, empty tool lists, the state and observability events, and no OAuth callback
// to claim. Connecting to a server throws. The exports at the end carry the names the SDK imports.
import { LifecycleCapability } from "agents/lifecycle";

const NOT_BUNDLED =
  "The Agents SDK's MCP client is not bundled in this Worker: its agents do not connect to MCP servers";

function notBundled(): never {
  throw new Error(NOT_BUNDLED);
}

export const RPC_DO_PREFIX = "rpc:";
export const MCP_SERVER_ID_MAX_LENGTH = 64;

export const MCPConnectionState = {
  AUTHENTICATING: "authenticating",
  CONNECTING: "connecting",
  CONNECTED: "connected",
  DISCOVERING: "discovering",
  READY: "ready",
  FAILED: "failed",
} as const;

/** The SDK's own rules (index.js exports it, addMcpServer applies it before connecting). */
export function normalizeServerId(input: string): string {
  if (typeof input !== "string")
    throw new TypeError(`normalizeServerId: expected string, got ${typeof input}`);
  let id = input
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
  if (id.length === 0 || !/^[a-z]/.test(id)) id = `id-${id}`.replace(/-+$/g, "");
  if (id.length > MCP_SERVER_ID_MAX_LENGTH) id = id.slice(0, MCP_SERVER_ID_MAX_LENGTH).replace(/-+$/g, "");
  return id;
}

/** The SDK's table, as it creates it: an SDK with the real client finds the schema it expects. */
export function ensureMcpServerTable(storage: DurableObjectStorage): void {
  storage.sql.exec(`
    CREATE TABLE IF NOT EXISTS cf_agents_mcp_servers (
      id TEXT PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      server_url TEXT NOT NULL,
      callback_url TEXT NOT NULL,
      client_id TEXT,
      auth_url TEXT,
      server_options TEXT
    )
  `);
}

interface Disposable {
  dispose(): void;
}

/** The Agent keeps its listeners here and disposes them when it is destroyed. */
export class DisposableStore {
  private items: Disposable[] = [];

  add<T extends Disposable>(item: T): T {
    this.items.push(item);
    return item;
  }

  dispose(): void {
    while (this.items.length) {
      try {
        this.items.pop()?.dispose();
      } catch {
        // One listener failing to let go must not keep the others.
      }
    }
  }
}

class Emitter<T> {
  private listeners = new Set<(data: T) => void>();

  readonly event = (listener: (data: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(data: T): void {
    for (const listener of this.listeners) {
      try {
        listener(data);
      } catch (error) {
        console.error("Emitter listener error:", error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

export type McpServerRow = {
  id: string;
  name: string;
  server_url: string;
  client_id: string | null;
  auth_url: string | null;
  callback_url: string;
  server_options: string | null;
};

const MCP_SCHEMA_VERSION_KEY = "cf_agents:mcp_schema_version";
const CURRENT_MCP_SCHEMA_VERSION = 1;

export class MCPClientManager extends LifecycleCapability {
  /** Open connections by server id: none ever opens. */
  readonly mcpConnections: Record<string, never> = {};
  private readonly observabilityEvents = new Emitter<unknown>();
  readonly onObservabilityEvent = this.observabilityEvents.event;
  private readonly serverStateChanges = new Emitter<void>();
  readonly onServerStateChanged = this.serverStateChanges.event;

  constructor(_name: string, _version: string, _options?: unknown) {
    super("mcp");
  }

  async onStart(): Promise<void> {
    const storage = this.lifecycle.storage;
    if (((await storage.get<number>(MCP_SCHEMA_VERSION_KEY)) ?? 0) < CURRENT_MCP_SCHEMA_VERSION) {
      ensureMcpServerTable(storage);
      await storage.put(MCP_SCHEMA_VERSION_KEY, CURRENT_MCP_SCHEMA_VERSION);
    }
    // Servers stored by a build with the real client stay listed, as "not-connected".
    if (this.listServers().length) console.warn(`${NOT_BUNDLED}; stored MCP servers stay disconnected`);
    this.serverStateChanges.fire();
  }

  /** An OAuth callback belongs to a server this manager registered: it registers none. */
  async onRequest(): Promise<Response | undefined> {
    return undefined;
  }

  isCallbackRequest(): boolean {
    return false;
  }

  listServers(): McpServerRow[] {
    return this.lifecycle.storage.sql
      .exec<McpServerRow>(
        "SELECT id, name, server_url, client_id, auth_url, callback_url, server_options FROM cf_agents_mcp_servers",
      )
      .toArray();
  }

  getRpcServersFromStorage(): McpServerRow[] {
    return this.listServers().filter((server) => server.server_url.startsWith(RPC_DO_PREFIX));
  }

  listTools(): never[] {
    return [];
  }

  listPrompts(): never[] {
    return [];
  }

  listResources(): never[] {
    return [];
  }

  listResourceTemplates(): never[] {
    return [];
  }

  getAITools(): Record<string, never> {
    return {};
  }

  unstable_getAITools(): Record<string, never> {
    return {};
  }

  getOAuthCallbackConfig(): undefined {
    return undefined;
  }

  /** AIChatAgent waits here before each turn (waitForMcpConnections): nothing is ever pending. */
  async waitForConnections(): Promise<void> {}

  async restoreConnectionsFromStorage(): Promise<void> {}

  async closeAllConnections(): Promise<void> {}

  async closeConnection(id: string): Promise<void> {
    throw new Error(`Connection with id "${id}" does not exist.`);
  }

  async dispose(): Promise<void> {
    this.serverStateChanges.dispose();
    this.observabilityEvents.dispose();
  }

  connect(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  registerServer(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  connectToServer(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  discoverIfConnected(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  establishConnection(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  handleCallbackRequest(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  migrateServerId(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  removeServer(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  callTool(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  readResource(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  getPrompt(): Promise<never> {
    return Promise.reject(new Error(NOT_BUNDLED));
  }

  saveRpcServerToStorage(): never {
    notBundled();
  }

  configureOAuthCallback(): never {
    notBundled();
  }

  configureElicitationHandlers(): never {
    notBundled();
  }
}

// The names the SDK's modules import this chunk's exports by (src-*.js, index.js).
export {
  ensureMcpServerTable as a,
  normalizeServerId as i,
  RPC_DO_PREFIX as l,
  MCP_SERVER_ID_MAX_LENGTH as n,
  MCPConnectionState as o,
  DisposableStore as s,
  MCPClientManager as t,
};
