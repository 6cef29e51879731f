import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { createWorkersAI } from "workers-ai-provider";
import { chatModelName, openAICompatible, probeModelName } from "../core/config";

/** The one place that decides which model answers: an OpenAI-compatible endpoint, or Workers AI. */
export interface ModelChoice {
  provider: "workers-ai" | "openai-compatible";
  modelId: string;
  model: LanguageModel;
}

export const ENABLE_AI_HINT =
  "AI is not available: Workers AI needs a Cloudflare account (run `wrangler login`, then `npm run dev:remote`), " +
  "or set AI_BASE_URL and AI_MODEL in .dev.vars to use an OpenAI-compatible server such as Ollama or llama.cpp.";

/** No model can be reached with this configuration (as opposed to a model that failed). */
export class AiUnavailableError extends Error {
  constructor(message = ENABLE_AI_HINT) {
    super(message);
    this.name = "AiUnavailableError";
  }
}

function choose(env: Env, workersAiModel: string): ModelChoice {
  const compatible = openAICompatible(env);
  if (compatible) {
    if (!compatible.model)
      throw new AiUnavailableError("AI_BASE_URL is set, so AI_MODEL must name a model there.");
    const provider = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: compatible.baseURL,
      apiKey: compatible.apiKey,
    });
    return {
      provider: "openai-compatible",
      modelId: compatible.model,
      model: provider.chatModel(compatible.model),
    };
  }
  const workersai = createWorkersAI({ binding: env.AI });
  return { provider: "workers-ai", modelId: workersAiModel, model: workersai(workersAiModel) };
}

/** The reasoning model behind ChatAgent (CHAT_MODEL, or AI_MODEL at AI_BASE_URL). */
export function chatModel(env: Env): ModelChoice {
  return choose(env, chatModelName(env));
}

/** The small instruct model behind GET /ai/health (PROBE_MODEL, or AI_MODEL at AI_BASE_URL). */
export function probeModel(env: Env): ModelChoice {
  return choose(env, probeModelName(env));
}

// Local `wrangler dev` without a login answers every AI.run with "Binding AI needs to be run remotely".
function isLocalOnlyBinding(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if (/needs to be run remotely/i.test(err.message)) return true;
  return isLocalOnlyBinding(err.cause, depth + 1);
}

/** Turns "this machine has no AI" into AiUnavailableError; any other failure is returned unchanged. */
export function classifyAiError(err: unknown): unknown {
  if (err instanceof AiUnavailableError) return err;
  return isLocalOnlyBinding(err) ? new AiUnavailableError() : err;
}
