import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { createWorkersAI } from "workers-ai-provider";
import { chatModelName, openAICompatible, probeModelName, titleModelName } from "../core/config";
import { AiUnavailableError } from "./ai-errors";

/** The one place that decides which model answers: an OpenAI-compatible endpoint, or Workers AI. */
export interface ModelChoice {
  provider: "workers-ai" | "openai-compatible";
  modelId: string;
  model: LanguageModel;
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

/** The small instruct model that titles a chat after its first exchange (TITLE_MODEL, or AI_MODEL at AI_BASE_URL). */
export function titleModel(env: Env): ModelChoice {
  return choose(env, titleModelName(env));
}
