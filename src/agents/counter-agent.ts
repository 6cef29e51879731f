// Runs in the Durable Object: one CounterAgent instance per counter name.
import { Agent, callable, type Connection, type ConnectionContext } from "agents";
import { errorBody } from "../http/errors";
import { closedSubAgentRoute } from "./agent-paths";
import { SocketGuard } from "./socket-guard";

export interface CounterState {
  count: number;
}

/** Thrown to an RPC caller: its message reaches the client, so it names the mistake and nothing internal. */
class CallableInputError extends Error {}

function expectNoArguments(method: string, args: unknown[]): void {
  if (args.length > 0) throw new CallableInputError(`${method}() takes no arguments`);
}

/** A named counter; clients change it only through increment() and decrement(). */
export class CounterAgent extends Agent<Env, CounterState> {
  initialState: CounterState = { count: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Wraps the SDK's handler (installed by Agent's constructor), so no call runs once the credential ended.
    const handle = this.onMessage.bind(this);
    this.onMessage = async (connection, message) => {
      if (await this.sockets.admit(connection)) return handle(connection, message);
    };
  }

  // --- With AGENTS_REQUIRE_AUTH on, sockets end with their credential (src/agents/socket-guard.ts).
  private guard?: SocketGuard;

  private get sockets(): SocketGuard {
    this.guard ??= new SocketGuard({
      agent: "counter-agent",
      name: this.name,
      env: this.env,
      ctx: this.ctx,
      getConnections: () => this.getConnections(),
      scheduleCheck: (at) =>
        this.schedule(at, "closeEndedSockets", { at: at.getTime() }, { idempotent: true }),
    });
    return this.guard;
  }

  onConnect(connection: Connection, ctx: ConnectionContext): void {
    this.sockets.opened(connection, ctx.request);
  }

  onClose(connection: Connection): void {
    this.sockets.closed(connection);
  }

  /** RPC from a credential-ending write (src/agents/socket-sweep.ts): answers how many sockets closed. */
  async recheckSockets(userId: number): Promise<number> {
    return this.sockets.recheck(userId);
  }

  /** Scheduled at a socket's credential's end. */
  async closeEndedSockets(): Promise<void> {
    await this.sockets.closeEnded();
  }
  // --- end of socket credentials

  // Synchronous read-modify-write: no await in between, so concurrent calls never interleave.
  private add(delta: number): number {
    const count = this.state.count + delta;
    this.setState({ count });
    return count;
  }

  @callable({ description: "Adds 1 and returns the new count" })
  increment(...args: unknown[]): number {
    expectNoArguments("increment", args);
    return this.add(1);
  }

  @callable({ description: "Subtracts 1 and returns the new count" })
  decrement(...args: unknown[]): number {
    expectNoArguments("decrement", args);
    return this.add(-1);
  }

  // Reject state pushed by clients (`cf_agent_state`); only the callables above change it.
  validateStateChange(next: CounterState, source: unknown): void {
    if (source !== "server") throw new Error("State is read-only; call increment() or decrement()");
    if (!Number.isSafeInteger(next.count)) throw new Error("count must be a safe integer");
  }

  // The SDK's sub-agent routing (`/sub/<agent>/<name>`) would create child instances: closed.
  async onBeforeSubAgent(): Promise<Response> {
    return closedSubAgentRoute();
  }

  async onRequest(request: Request): Promise<Response> {
    // Only the instance path itself: /agents/counter-agent/<name>.
    if (new URL(request.url).pathname.split("/").filter(Boolean).length !== 3) {
      return Response.json(errorBody("Not found"), { status: 404 });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return Response.json(errorBody("Method not allowed"), { status: 405, headers: { Allow: "GET, HEAD" } });
    }
    return Response.json({ count: this.state.count, url: request.url });
  }
}
