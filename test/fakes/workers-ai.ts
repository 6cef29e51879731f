// A scripted model behind the AI binding (an auxiliary worker in vitest.config.ts). It answers run() in
// Workers AI's formats, so our code and workers-ai-provider run for real; only the model is replaced.
// Scripts: the model name picks the probe behaviour ("never" hangs, "fail" throws); the last user message
// picks the chat stream: "[script:slow]", "[script:long]", "[script:fail-midway]", "[script:tool:<name> <json args>]"
// (one streamed tool call in the binding's native format), "[script:tool-loop:<name> <json args>]" (that
// call on every step, after tool results too, 5 tokens each), otherwise a short answer. After a tool result
// (the last message has role "tool") it answers TOOL_DONE_TEXT. Plain calls (the probe, chat titles)
// answer AI_OK, or what a "[script:title:...]" in the exchange says. "[script:refuse:<part>]" makes every
// streamed call to a model whose name contains <part> ("*": any) throw, "[script:break:<part>]" answer a
// stream that breaks before its first token: the chat then falls back to its next model.
import { WorkerEntrypoint } from "cloudflare:workers";

interface RunInputs {
  stream?: boolean;
  prompt?: string;
  max_tokens?: number;
  messages?: { role: string; content: unknown }[];
}

interface Delta {
  reasoning?: string;
  text?: string;
}

export const NORMAL_REASONING = ["The user ", "wants a ", "greeting."];
export const NORMAL_TEXT = ["Hello ", "from the ", "scripted ", "model."];
// Arrays, like NORMAL_TEXT: workerd accepts no plain string exports from a worker module.
export const TOOL_DONE_TEXT = ["The tool has answered."];
const TOOL_SCRIPT = /\[script:tool:(\w+) (\{.*?\})\]/;
const TOOL_LOOP_SCRIPT = /\[script:tool-loop:(\w+) (\{.*?\})\]/;
const TITLE_SCRIPT = /\[script:title:([^\]]*)\]/;
const MODEL_SCRIPT = /\[script:(refuse|break):([^\]]+)\]/g;

/** How a scripted prompt makes `model` fail before answering, if it does. */
function modelFailure(model: string, prompt: string): "refuse" | "break" | null {
  for (const [, how, part] of prompt.matchAll(MODEL_SCRIPT)) {
    if (part === "*" || model.includes(part!)) return how as "refuse" | "break";
  }
  return null;
}

/** A 2xx stream that errors before its first event. */
const brokenStream = () =>
  new ReadableStream<Uint8Array>({
    pull: (controller) => controller.error(new Error("InferenceUpstreamError: scripted broken stream")),
  });

const recorded: { model: string; inputs: RunInputs }[] = [];
const encoder = new TextEncoder();

function lastUserText(inputs: RunInputs): string {
  const user = (inputs.messages ?? []).findLast((m) => m.role === "user");
  return typeof user?.content === "string"
    ? user.content
    : JSON.stringify(user?.content ?? inputs.prompt ?? "");
}

function usage(completionTokens: number) {
  return { prompt_tokens: 12, completion_tokens: completionTokens, total_tokens: 12 + completionTokens };
}

// Workers AI streams `response` deltas natively and reasoning as OpenAI-style `reasoning_content`.
function event(delta: Delta): string {
  const body = delta.reasoning
    ? { response: "", choices: [{ index: 0, delta: { reasoning_content: delta.reasoning } }] }
    : { response: delta.text ?? "" };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function script(prompt: string): { deltas: Delta[]; delayMs: number; failAfter?: number } {
  if (prompt.includes("[script:slow]")) {
    const deltas = Array.from({ length: 40 }, (_, i) =>
      i < 5 ? { reasoning: `step ${i}. ` } : { text: `w${i} ` },
    );
    return { deltas, delayMs: 25 };
  }
  if (prompt.includes("[script:long]")) {
    return { deltas: Array.from({ length: 500 }, (_, i) => ({ text: `c${i} ` })), delayMs: 0 };
  }
  if (prompt.startsWith("[script:text] ")) {
    return { deltas: [{ text: prompt.slice("[script:text] ".length) }], delayMs: 5 };
  }
  if (prompt.includes("[script:fail-midway]")) {
    return {
      deltas: [{ reasoning: "Thinking. " }, { text: "Partial " }, { text: "answer " }],
      delayMs: 10,
      failAfter: 3,
    };
  }
  return {
    deltas: [
      ...NORMAL_REASONING.map((reasoning) => ({ reasoning })),
      ...NORMAL_TEXT.map((text) => ({ text })),
    ],
    delayMs: 15,
  };
}

const toolCallDelta = (fields: object) => ({ response: "", tool_calls: [{ index: 0, ...fields }] });

/** A tool call the way the binding streams it: native `tool_calls` deltas, the arguments in two pieces. */
function toolCallStream(name: string, args: string): ReadableStream<Uint8Array> {
  const half = Math.floor(args.length / 2);
  const events = [
    toolCallDelta({
      id: `call_${crypto.randomUUID().slice(0, 8)}`,
      type: "function",
      function: { name, arguments: args.slice(0, half) },
    }),
    toolCallDelta({ function: { arguments: args.slice(half) } }),
    { response: "", finish_reason: "tool_calls", usage: usage(5) },
  ];
  const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(body).body!;
}

function sseStream(prompt: string): ReadableStream<Uint8Array> {
  const { deltas, delayMs, failAfter } = script(prompt);
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      if (failAfter !== undefined && index === failAfter) {
        controller.error(new Error("InferenceUpstreamError: scripted failure midway"));
        return;
      }
      const delta = deltas[index++];
      if (delta) return controller.enqueue(encoder.encode(event(delta)));
      controller.enqueue(
        encoder.encode(`data: ${JSON.stringify({ response: "", usage: usage(deltas.length) })}\n\n`),
      );
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
}

export class WorkersAiFake extends WorkerEntrypoint {
  async run(model: string, inputs: RunInputs): Promise<unknown> {
    recorded.push({ model, inputs });
    if (recorded.length > 50) recorded.shift();
    // A pending timer, not a bare pending promise: workerd cancels requests it can prove are hung.
    if (model.includes("never")) return new Promise((resolve) => setTimeout(resolve, 120_000));
    if (model.includes("fail")) throw new Error("InferenceUpstreamError: scripted model failure");
    if (inputs.stream) {
      const failure = modelFailure(model, lastUserText(inputs));
      if (failure === "refuse") throw new Error(`InferenceUpstreamError: scripted refusal of ${model}`);
      if (failure === "break") return brokenStream();
      const loop = TOOL_LOOP_SCRIPT.exec(lastUserText(inputs));
      if (loop) return toolCallStream(loop[1]!, loop[2]!);
      if (inputs.messages?.at(-1)?.role === "tool")
        return sseStream(`[script:text] ${TOOL_DONE_TEXT.join("")}`);
      const tool = TOOL_SCRIPT.exec(lastUserText(inputs));
      if (tool) return toolCallStream(tool[1]!, tool[2]!);
      return sseStream(lastUserText(inputs));
    }
    // A chat's title (non-streamed): "[script:title-fail]" in the exchange throws, "[script:title:<text>]" answers <text>.
    const exchange = lastUserText(inputs);
    if (exchange.includes("[script:title-fail]"))
      throw new Error("InferenceUpstreamError: scripted title failure");
    const title = TITLE_SCRIPT.exec(exchange)?.[1];
    return { response: title ?? "AI_OK", tool_calls: [], usage: usage(3) };
  }

  /** The most recent run() calls, newest last, for assertions on what our code sent. */
  async calls(): Promise<{ model: string; inputs: RunInputs }[]> {
    return recorded;
  }
}
