import { AIChatAgent, type OnChatMessageOptions } from "@cloudflare/ai-chat";
import { convertToModelMessages, streamText } from "ai";
import { AiUnavailableError, chatModel, classifyAiError } from "../services/ai-models";
import { fitContext } from "./chat-context";

const SYSTEM_PROMPT = "You are a helpful assistant. Think step by step, then answer clearly and concisely.";
// Reasoning models spend many tokens thinking before the first word of the answer.
const MAX_OUTPUT_TOKENS = 8_192;

/** What the client sees when a turn fails: actionable for missing AI, generic otherwise (no internals). */
export function chatErrorMessage(err: unknown): string {
  const classified = classifyAiError(err);
  return classified instanceof AiUnavailableError ? classified.message : "The model failed to answer. Try again.";
}

/** Streaming chat over WebSocket; messages persist per instance and a reconnecting client resumes the stream. */
export class ChatAgent extends AIChatAgent<Env> {
  // Storage bound per instance; the model sees a smaller window (fitContext).
  maxPersistedMessages = 200;

  async onChatMessage(_onFinish: unknown, options?: OnChatMessageOptions): Promise<Response> {
    const messages = fitContext(await convertToModelMessages(this.messages));
    let model;
    try {
      model = chatModel(this.env).model;
    } catch (err) {
      return errorStream(chatErrorMessage(err));
    }
    const result = streamText({
      model,
      system: SYSTEM_PROMPT,
      messages,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      maxRetries: 0,
      abortSignal: options?.abortSignal,
      onError: ({ error }) => console.error(JSON.stringify({ level: "error", event: "chat_model_error", error: String(error) })),
    });
    return result.toUIMessageStreamResponse({ sendReasoning: true, onError: chatErrorMessage });
  }

  /** Plain HTTP has no chat handler; the transcript (`/get-messages`) is served by AIChatAgent itself. */
  async onRequest(): Promise<Response> {
    return Response.json({ success: false, error: { message: "Not found" } }, { status: 404 });
  }

  /** For other Workers over a Durable Object binding: proves the agent runs without spending a model call. */
  async healthCheck(): Promise<Response> {
    return new Response("OK", { status: 200, headers: { "Content-Type": "text/plain" } });
  }
}

// A one-chunk UI message stream carrying an error, so a misconfigured turn fails like a model failure.
function errorStream(errorText: string): Response {
  const body = `data: ${JSON.stringify({ type: "error", errorText })}\n\ndata: [DONE]\n\n`;
  return new Response(body, { headers: { "Content-Type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" } });
}
