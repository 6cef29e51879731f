// Another Worker that reaches the agents over RPC through Durable Object bindings to the service's
// script, and a user's chats through a service binding to its ChatsService entrypoint (an auxiliary
// worker in vitest.config.ts), as a consumer Worker does in production.
import type { ChatAgent, CounterAgent, TodoFeedAgent } from "../../src/agents";
import type { ChatsService } from "../../src/rpc/chats-service";

interface ConsumerEnv {
  COUNTER: DurableObjectNamespace<CounterAgent>;
  CHAT: DurableObjectNamespace<ChatAgent>;
  FEED: DurableObjectNamespace<TodoFeedAgent>;
  CHATS: Service<ChatsService>;
}

/** What the consumer answers for one of ChatsService's calls: its result, or the error it threw. */
async function answer(call: () => Promise<unknown>): Promise<Response> {
  try {
    return Response.json({ result: await call() });
  } catch (err) {
    return Response.json({ error: err instanceof Error ? err.message : String(err) }, { status: 400 });
  }
}

export default {
  async fetch(request: Request, env: ConsumerEnv): Promise<Response> {
    const url = new URL(request.url);
    const name = url.searchParams.get("name") ?? "default";
    const user = Number(url.searchParams.get("user"));
    const chat = url.searchParams.get("chat") ?? "";
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
      // A user's chats and one chat's messages, as that user (ChatsService checks the chat is theirs).
      case "/chats": {
        const cursor = url.searchParams.get("cursor") ?? undefined;
        const limit = url.searchParams.has("limit") ? Number(url.searchParams.get("limit")) : undefined;
        return answer(() => env.CHATS.listChats(user, { cursor, limit }));
      }
      case "/chat":
        return answer(() => env.CHATS.getChat(user, chat));
      case "/chat-messages":
        return answer(() => env.CHATS.getMessages(user, chat));
      default:
        return new Response("Not found", { status: 404 });
    }
  },
};
