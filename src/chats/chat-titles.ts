// Runs in the chat Durable Object, loaded when a chat is first titled: the title of its first exchange.
import type { Logger } from "../core/logger";
import { titleModel } from "../ai/models";
import { generateText, spanContext } from "../ai/traced-ai";
import { cutOff, TITLE_CHARS } from "./chat-text";

// The fallback is a glance at the first message, shorter than a title may be.
const FALLBACK_CHARS = 48;
const EXCHANGE_CHARS = 1_000;
const TITLE_MAX_TOKENS = 24;
const TITLE_TIMEOUT_MS = 10_000;
const TITLE_PROMPT =
  "Write a title of at most six words for the conversation below. Answer with the title only: " +
  "no quotes, no trailing punctuation.";

/** A short cut of the first message: the title when the model cannot give one. */
export function fallbackTitle(firstMessage: string): string {
  return cutOff(firstMessage, FALLBACK_CHARS) || "New chat";
}

/** The model's answer as a title: its first line, without reasoning, a `Title:` label, quotes or a final period. */
export function cleanTitle(raw: string): string | null {
  const line = raw
    .replace(/<think>[\s\S]*?(<\/think>|$)/g, "")
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  const title = line
    .replace(/^(title\s*:\s*)/i, "")
    .replace(/^["'“”‘’*#\s]+|["'“”‘’*\s]+$/g, "")
    .replace(/[.。!]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  return title ? cutOff(title, TITLE_CHARS) : null;
}

/** What a title cost, as the model reported it. */
export interface TitleCall {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/** The model's title, bounded by TITLE_TIMEOUT_MS (the race, not only the signal: a binding may ignore it). */
async function askModel(
  env: Env,
  chatName: string,
  question: string,
  answer: string,
): Promise<{ text: string; call: TitleCall }> {
  const choice = titleModel(env);
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`no title within ${TITLE_TIMEOUT_MS} ms`));
    }, TITLE_TIMEOUT_MS);
  });
  try {
    const { text, usage } = await Promise.race([
      generateText({
        model: choice.model,
        system: TITLE_PROMPT,
        prompt: `User: ${cutOff(question, EXCHANGE_CHARS)}\nAssistant: ${cutOff(answer, EXCHANGE_CHARS)}`,
        maxOutputTokens: TITLE_MAX_TOKENS,
        maxRetries: 0,
        abortSignal: abort.signal,
        runtimeContext: spanContext("chat-titles", chatName),
      }),
      deadline,
    ]);
    const call = {
      model: choice.modelId,
      inputTokens: usage.inputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
    };
    return { text, call };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * The title of an answered exchange (the chat's first): the model's, or the fallback when the title
 * model fails. Never called for a failed turn. `bill` hears what a model that answered cost.
 */
export async function titleFor(
  env: Env,
  chat: { name: string; question: string; answer: string },
  logger: Logger,
  bill: (call: TitleCall) => Promise<void>,
): Promise<string> {
  const { question, answer } = chat;
  try {
    const { text, call } = await askModel(env, chat.name, question, answer);
    await bill(call);
    return cleanTitle(text) ?? fallbackTitle(question);
  } catch (err) {
    logger.warn("chat_title_failed", { error: String(err) });
    return fallbackTitle(question);
  }
}
