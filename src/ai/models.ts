import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createWorkersAI } from "workers-ai-provider";
import {
  aiDemo,
  chatModelNames,
  openAICompatible,
  probeModelName,
  titleModelName,
  type OpenAICompatibleSettings,
} from "../core/config";
import { AiUnavailableError } from "./ai-errors";

/** The one place that decides which model answers: the demo, an OpenAI-compatible endpoint, or Workers AI. */
export interface ModelChoice {
  provider: "workers-ai" | "openai-compatible" | "demo";
  modelId: string;
  model: LanguageModelV4;
}

function compatibleModels(compatible: OpenAICompatibleSettings, names: string[]): ModelChoice[] {
  if (names.length === 0)
    throw new AiUnavailableError("AI_BASE_URL is set, so AI_MODEL must name a model there.");
  const provider = createOpenAICompatible({
    name: "openai-compatible",
    baseURL: compatible.baseURL,
    apiKey: compatible.apiKey,
  });
  return names.map((modelId) => ({
    provider: "openai-compatible",
    modelId,
    model: provider.chatModel(modelId),
  }));
}

/** The name every answer of the offline demo model carries (`metadata.model`, usage, /ai/health). */
export const DEMO_MODEL_ID = "offline-demo";

// The demo speaks the AI binding's contract, so workers-ai-provider, the tools and approvals run for
// real; its script loads on its first call, never in a deployment that does not turn it on.
const demoBinding = {
  run: async (model: string, inputs: object) => (await import("./demo-model")).runDemo(model, inputs),
} as unknown as Ai;

/**
 * The models named `workersAiModels` on Workers AI, or AI_MODEL's at AI_BASE_URL (`first`: only its
 * first); with AI_DEMO, the demo model alone.
 */
function choose(env: Env, workersAiModels: string[], first = false): ModelChoice[] {
  if (aiDemo(env)) {
    const demo = createWorkersAI({ binding: demoBinding });
    return [{ provider: "demo", modelId: DEMO_MODEL_ID, model: demo(DEMO_MODEL_ID) }];
  }
  const compatible = openAICompatible(env);
  if (compatible)
    return compatibleModels(compatible, first ? compatible.models.slice(0, 1) : compatible.models);
  const workersai = createWorkersAI({ binding: env.AI });
  return workersAiModels.map((modelId) => ({ provider: "workers-ai", modelId, model: workersai(modelId) }));
}

/** The reasoning models behind ChatAgent, in the order they are tried (CHAT_MODELS, or AI_MODEL at AI_BASE_URL). */
export function chatModels(env: Env): ModelChoice[] {
  return choose(env, chatModelNames(env));
}

/** The small instruct model behind GET /ai/health (PROBE_MODEL, or AI_MODEL's first at AI_BASE_URL). */
export function probeModel(env: Env): ModelChoice {
  return choose(env, [probeModelName(env)], true)[0]!;
}

/** The small instruct model that titles a chat after its first exchange (TITLE_MODEL, or AI_MODEL's first). */
export function titleModel(env: Env): ModelChoice {
  return choose(env, [titleModelName(env)], true)[0]!;
}
