import { generateText } from "ai";
import { probeTimeoutMs } from "../core/config";
import { classifyAiError, ProbeTimeoutError } from "./ai-errors";
import { chatModels, type ModelChoice, probeModel, titleModel } from "./models";

export const PROBE_PROMPT = "Answer with exactly AI_OK and nothing else.";
export const PROBE_MAX_TOKENS = 20;

/** One real inference of the probe prompt on `choice`, bounded by AI_PROBE_TIMEOUT_MS. */
export async function inference(env: Env, choice: ModelChoice) {
  const timeoutMs = probeTimeoutMs(env);
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The race, not only the signal, bounds the wait: a binding may ignore the abort.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new ProbeTimeoutError(timeoutMs));
    }, timeoutMs);
  });
  const started = Date.now();
  try {
    const result = await Promise.race([
      generateText({
        model: choice.model,
        prompt: PROBE_PROMPT,
        maxOutputTokens: PROBE_MAX_TOKENS,
        maxRetries: 0,
        abortSignal: abort.signal,
      }),
      deadline,
    ]);
    return {
      provider: choice.provider,
      model: choice.modelId,
      latencyMs: Date.now() - started,
      result: {
        response: result.text,
        finishReason: result.finishReason,
        usage: {
          inputTokens: result.usage.inputTokens ?? null,
          outputTokens: result.usage.outputTokens ?? null,
          totalTokens: result.usage.totalTokens ?? null,
        },
      },
    };
  } catch (err) {
    throw classifyAiError(err);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Which model does what, as configured (no inference). */
export function configuredModels(env: Env) {
  return {
    probe: probeModel(env).modelId,
    chat: chatModels(env).map((choice) => choice.modelId),
    title: titleModel(env).modelId,
  };
}

/** The spec's probe: one real inference on the probe model, and the models configured for each role. */
export async function runProbe(env: Env) {
  const answer = await inference(env, probeModel(env));
  return { ...answer, models: configuredModels(env) };
}
