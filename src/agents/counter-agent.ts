import { Agent, callable } from "agents";

export interface CounterState {
  count: number;
}

/** A named counter; clients change it only through increment() and decrement(). */
export class CounterAgent extends Agent<Env, CounterState> {
  initialState: CounterState = { count: 0 };

  @callable()
  increment(): number {
    const count = this.state.count + 1;
    this.setState({ count });
    return count;
  }

  @callable()
  decrement(): number {
    const count = this.state.count - 1;
    this.setState({ count });
    return count;
  }

  // Reject state pushed by clients (`cf_agent_state`); only the callables above change it.
  validateStateChange(_next: CounterState, source: unknown): void {
    if (source !== "server") throw new Error("State is read-only; call increment() or decrement()");
  }

  async onRequest(request: Request): Promise<Response> {
    if (request.method !== "GET") return new Response(null, { status: 405, headers: { Allow: "GET" } });
    return Response.json({ count: this.state.count, url: request.url });
  }
}
