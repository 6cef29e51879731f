// Runs where a model call runs, loaded on the first call with AI_DEMO=true: the offline demo model. It
// answers run() in Workers AI's formats (streamed text, reasoning, native tool calls), as the tests'
// scripted stand-in does (test/fakes/workers-ai.ts), so workers-ai-provider, the tools and their approvals
// run for real. Its script reads the last user message; nothing here is AI.

interface Message {
  role: string;
  content?: unknown;
  name?: string;
}

interface RunInputs {
  stream?: boolean;
  prompt?: string;
  messages?: Message[];
  tools?: { function?: { name?: string } }[];
}

type Step = { text: string } | { tool: string; args: object };

const WELCOME =
  "**This is the offline demo model**: a script, not AI. Try *Add a todo: water the plants* (it waits " +
  "for your Approve), *What's on my list?* or *Which files do I have?*\n\nTo connect a real model: " +
  "Workers AI (`wrangler login`, then `npm run dev:remote`) or an OpenAI-compatible server (AI_BASE_URL " +
  "and AI_MODEL in `.dev.vars`); see docs/agents.md.";

const encoder = new TextEncoder();
const textOf = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content ?? ""));

function lastUserText(inputs: RunInputs): string {
  return textOf((inputs.messages ?? []).findLast((m) => m.role === "user")?.content ?? inputs.prompt);
}

/** The names of a tool's result: todo titles, file names. */
function namesIn(result: unknown): string[] | null {
  const list = Array.isArray(result) ? result : (result as { items?: unknown })?.items;
  if (!Array.isArray(list)) return null;
  return list.map((item: Record<string, unknown>) => String(item.title ?? item.name ?? item.key ?? "?"));
}

/** What the demo says once a tool has answered. */
function afterTool(message: Message): string {
  let result: unknown = message.content;
  try {
    result = JSON.parse(textOf(message.content));
  } catch {
    return `The tool answered: ${textOf(message.content)}`;
  }
  const names = namesIn(result);
  if (names) {
    if (names.length === 0) return "Nothing there yet.";
    return `Here is what I found (${names.length}):\n\n${names.map((n) => `- ${n}`).join("\n")}`;
  }
  const title = (result as { title?: unknown })?.title;
  if (message.name === "createTodo" && typeof title === "string")
    return `Done: **${title}** is on your todo list now. Open Todos to see it.`;
  return `The tool **${message.name ?? "call"}** has answered.`;
}

/** The todo's title in "Add a todo: water the plants", or after the word "todo". */
function todoTitle(text: string): string {
  const said = text.includes(":") ? text.slice(text.indexOf(":") + 1) : text.replace(/^.*?\btodo\b/i, "");
  return (
    said
      .trim()
      .replace(/[.!?]+$/, "")
      .slice(0, 80) || "Try the demo"
  );
}

/** The demo's next step for this conversation. */
function plan(inputs: RunInputs): Step {
  const last = inputs.messages?.at(-1);
  if (last?.role === "tool") return { text: afterTool(last) };
  const text = lastUserText(inputs);
  const lower = text.toLowerCase();
  const tools = new Set((inputs.tools ?? []).map((t) => t.function?.name));
  if (tools.has("createTodo") && /\b(add|create|new|remind)\b/.test(lower) && /\btodo\b/.test(lower))
    return { tool: "createTodo", args: { title: todoTitle(text) } };
  if (tools.has("listTodos") && /\b(done|completed|finished)\b/.test(lower))
    return { tool: "listTodos", args: { completed: true } };
  if (tools.has("listTodos") && /\b(todos?|list|tasks?)\b/.test(lower))
    return { tool: "listTodos", args: {} };
  if (tools.has("listFiles") && /\bfiles?\b/.test(lower)) return { tool: "listFiles", args: {} };
  return { text: WELCOME };
}

const sse = (body: object) => `data: ${JSON.stringify(body)}\n\n`;

function usage(outputTokens: number) {
  return { prompt_tokens: 20, completion_tokens: outputTokens, total_tokens: 20 + outputTokens };
}

/** A text answer, a few words at a time, after one line of reasoning. */
function textStream(text: string): ReadableStream<Uint8Array> {
  const words = text.match(/\S+\s*/g) ?? [];
  const events = [
    sse({
      response: "",
      choices: [{ index: 0, delta: { reasoning_content: "Following the demo's script." } }],
    }),
    ...words.map((word) => sse({ response: word })),
    sse({ response: "", usage: usage(words.length + 1) }),
    "data: [DONE]\n\n",
  ];
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      // Paced like a model, so streaming shows.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const event = events[index++];
      if (event === undefined) controller.close();
      else controller.enqueue(encoder.encode(event));
    },
  });
}

/** One tool call the way the binding streams it. */
function toolStream(name: string, args: object): ReadableStream<Uint8Array> {
  const call = { id: `call_${crypto.randomUUID().slice(0, 8)}`, type: "function" };
  const events = [
    sse({
      response: "",
      tool_calls: [{ index: 0, ...call, function: { name, arguments: JSON.stringify(args) } }],
    }),
    sse({ response: "", finish_reason: "tool_calls", usage: usage(5) }),
    "data: [DONE]\n\n",
  ];
  return new Response(events.join("")).body!;
}

/** A title: the first words of the exchange's question (the title prompt reads "User: …\nAssistant: …"). */
const title = (prompt: string) =>
  (/User: (.*)/.exec(prompt)?.[1] ?? "").split(/\s+/).slice(0, 5).join(" ").trim() || "Demo chat";

/** Workers AI's run(): a stream of events for a streamed call, the answer object otherwise. */
export async function runDemo(_model: string, inputs: RunInputs): Promise<unknown> {
  if (inputs.stream) {
    const step = plan(inputs);
    return "tool" in step ? toolStream(step.tool, step.args) : textStream(step.text);
  }
  const prompt = lastUserText(inputs);
  const response = prompt.includes("User: ") ? title(prompt) : "AI_OK";
  return { response, tool_calls: [], usage: usage(3) };
}
