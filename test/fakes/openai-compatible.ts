/// <reference types="node" />
// A scripted OpenAI-compatible server on loopback (what a local Ollama or llama.cpp server speaks), for
// tests and benchmarks against `wrangler dev` with AI_BASE_URL pointing here. Only the model is scripted.
// The last user message picks the script: "[script:slow]", "[script:chunks:N]" (N numbered chunks, paced
// by chunkDelayMs, emit times recorded), "[script:fail-midway]", "[script:markdown]" (MARKDOWN in pieces),
// "[script:tool:<name> <json args>]" (one streamed tool call in OpenAI's delta.tool_calls format), "[script:echo]"
// (the texts of the last user message back, as the model received them: attached files included),
// "[script:no-model]" (refused with the words of the AI binding on a machine without a Cloudflare login, so
// the chat's no-model message shows in a browser), otherwise a short reasoning + answer. After a tool
// result (the last message has role "tool") it answers TOOL_DONE. A plain call answers AI_OK, or a chat's
// scripted title.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const REASONING = ["The user ", "wants a ", "greeting."];
export const ANSWER = ["Hello ", "from the ", "scripted ", "server."];
export const TOOL_DONE = "The tool has answered.";
/** Markdown a client should render, with raw HTML and a script URL it must not. */
export const MARKDOWN = [
  "Here is **the plan**:\n\n",
  "1. Water the plants\n2. Send the `report`\n\n",
  '<img src=x onerror="globalThis.pwned=1"> ',
  "[a link](javascript:globalThis.pwned=1)\n\n",
  "```\nnpm run dev\n```\n",
];
const TOOL_SCRIPT = /\[script:tool:(\w+) (\{.*?\})\]/;

export interface ScriptedServer {
  /** Base URL for AI_BASE_URL, ending in /v1. */
  baseURL: string;
  /** performance.now() at which numbered chunk i of the latest "[script:chunks:N]" answer was written. */
  emitTimes: number[];
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

interface Delta {
  reasoning_content?: string;
  content?: string;
  tool_calls?: {
    index: number;
    id?: string;
    type?: "function";
    function: { name?: string; arguments: string };
  }[];
}

function lastUserText(body: any): string {
  const user = (body?.messages ?? []).findLast((m: any) => m.role === "user");
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content ?? "");
}

/** The text parts of the last user message, joined: what "[script:echo]" answers. */
function lastUserTexts(body: any): string {
  const user = (body?.messages ?? []).findLast((m: any) => m.role === "user");
  if (typeof user?.content === "string") return user.content;
  return (user?.content ?? []).flatMap((part: any) => (part.type === "text" ? [part.text] : [])).join("\n");
}

// A plain (non-streamed) call: the probe, or a chat's title ("[script:title:<text>]" in the exchange).
const TITLE_SCRIPT = /\[script:title:([^\]]*)\]/;
const plainAnswer = (body: any) => TITLE_SCRIPT.exec(lastUserText(body))?.[1] ?? "AI_OK";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startScriptedServer(options: { chunkDelayMs?: number } = {}): Promise<ScriptedServer> {
  const emitTimes: number[] = [];
  const requests: ScriptedServer["requests"] = [];

  async function stream(res: ServerResponse, body: any, afterTool: boolean) {
    const { model } = body;
    const prompt = lastUserText(body);
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
    });
    const id = `chatcmpl-${Date.now()}`;
    const write = (delta: Delta, finish: string | null = null, usage?: object) =>
      res.write(
        `data: ${JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...(usage ? { usage } : {}),
        })}\n\n`,
      );
    const chunks = prompt.match(/\[script:chunks:(\d+)\]/);
    const tool = TOOL_SCRIPT.exec(prompt);
    if (afterTool) {
      write({ content: TOOL_DONE });
    } else if (tool) {
      const [, name, args] = tool as unknown as [string, string, string];
      const half = Math.floor(args.length / 2);
      const callId = `call_${Date.now()}`;
      write({
        tool_calls: [
          { index: 0, id: callId, type: "function", function: { name, arguments: args.slice(0, half) } },
        ],
      });
      await sleep(15);
      write({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] });
      write({}, "tool_calls", { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
      res.end("data: [DONE]\n\n");
      return;
    } else if (chunks) {
      emitTimes.length = 0;
      for (let i = 0; i < Number(chunks[1]); i++) {
        if (options.chunkDelayMs) await sleep(options.chunkDelayMs);
        emitTimes[i] = performance.now();
        write({ content: `<${i}>` });
      }
    } else if (prompt.includes("[script:slow]")) {
      for (let i = 0; i < 40; i++) {
        await sleep(25);
        write(i < 5 ? { reasoning_content: `step ${i}. ` } : { content: `w${i} ` });
      }
    } else if (prompt.includes("[script:echo]")) {
      write({ content: `You sent:\n\n${lastUserTexts(body)}` });
    } else if (prompt.includes("[script:markdown]")) {
      for (const content of MARKDOWN) {
        await sleep(15);
        write({ content });
      }
    } else if (prompt.includes("[script:fail-midway]")) {
      write({ reasoning_content: "Thinking. " });
      write({ content: "Partial " });
      await sleep(20);
      res.destroy();
      return;
    } else {
      for (const reasoning_content of REASONING) {
        await sleep(15);
        write({ reasoning_content });
      }
      for (const content of ANSWER) {
        await sleep(15);
        write({ content });
      }
    }
    write({}, "stop", { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 });
    res.end("data: [DONE]\n\n");
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    requests.push({ path: req.url ?? "", body });
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    if (body.stream && lastUserText(body).includes("[script:no-model]")) {
      res.writeHead(503, { "Content-Type": "application/json" });
      res.end('{"error":{"message":"Binding AI needs to be run remotely"}}');
      return;
    }
    if (body.stream) return stream(res, body, body.messages?.at(-1)?.role === "tool");
    res.writeHead(200, { "Content-Type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${Date.now()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message: { role: "assistant", content: plainAnswer(body) }, finish_reason: "stop" },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
      }),
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    emitTimes,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
