// Another Worker that reaches the agents over RPC through Durable Object bindings to the service's
// script (an auxiliary worker in vitest.config.ts), as a consumer Worker does in production.
import type { ChatAgent, CounterAgent, TodoFeedAgent } from "../../src/agents";

interface ConsumerEnv {
  COUNTER: DurableObjectNamespace<CounterAgent>;
  CHAT: DurableObjectNamespace<ChatAgent>;
  FEED: DurableObjectNamespace<TodoFeedAgent>;
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
      // A subscriber polling a user's todo feed: the events after its cursor.
      case "/feed-events": {
        const after = Number(url.searchParams.get("after") ?? 0);
        return Response.json(await env.FEED.getByName(name).eventsSince(after));
      }
      default:
        return new Response("Not found", { status: 404 });
    }
  },
};
