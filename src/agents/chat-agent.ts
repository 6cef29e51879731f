import { AIChatAgent } from "@cloudflare/ai-chat";

/** Streaming chat over WebSocket; the model wiring lands with the agents issue. */
export class ChatAgent extends AIChatAgent<Env> {
  async onChatMessage(): Promise<Response | undefined> {
    return new Response("Chat is not configured yet", { status: 503 });
  }

  async healthCheck(): Promise<Response> {
    return new Response("OK", { status: 200 });
  }
}
