// Another Worker that reaches the agents over RPC through Durable Object bindings to the service's
// script (an auxiliary worker in vitest.config.ts), as a consumer Worker does in production.
import type { ChatAgent, CounterAgent } from "../../src/agents";

interface ConsumerEnv {
  COUNTER: DurableObjectNamespace<CounterAgent>;
  CHAT: DurableObjectNamespace<ChatAgent>;
}

export default {
  async fetch(request: Request, env: ConsumerEnv): Promise<Response> {
    const url = new URL(request.url);
    const name = url.searchParams.get("name") ?? "default";
    switch (url.pathname) {
      case "/increment":
        return Response.json({ count: await env.COUNTER.getByName(name).increment() });
      case "/decrement":
        return Response.json({ count: await env.COUNTER.getByName(name).decrement() });
      case "/chat-health": {
        const res = await env.CHAT.getByName(name).healthCheck();
        return new Response(await res.text(), { status: res.status });
      }
      default:
        return new Response("Not found", { status: 404 });
    }
  },
};
