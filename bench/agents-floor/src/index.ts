// Only what every isolate of the service evaluates for its agents: the SDK base classes.
import { AIChatAgent } from "@cloudflare/ai-chat";
import { Agent } from "agents";

export class CounterAgent extends Agent<Cloudflare.Env, { count: number }> {}

export class ChatAgent extends AIChatAgent<Cloudflare.Env> {
  async onChatMessage(): Promise<Response> {
    return new Response("");
  }
}

export default { fetch: () => new Response("ok") };
