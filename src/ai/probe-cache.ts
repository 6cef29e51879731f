import { aiDemo, openAICompatible } from "../core/config";
import { configuredModels, runProbe } from "./probe";

/** How long one answer serves GET /ai/health: a flood costs one inference per isolate per window. */
export const PROBE_REUSE_MS = 30_000;

type ProbeAnswer = Awaited<ReturnType<typeof runProbe>> & {
  checkedAt: string;
  checks?: Awaited<ReturnType<typeof import("./model-checks").checkModels>>;
};

const recent = new Map<string, { at: number; answer: Promise<ProbeAnswer> }>();

// One entry per model configuration, so changing a model never serves the old one's answer.
function configuration(env: Env, all: boolean): string {
  const compatible = openAICompatible(env);
  const where = aiDemo(env) ? "demo" : compatible ? `openai-compatible ${compatible.baseURL}` : "workers-ai";
  const models = all ? JSON.stringify(configuredModels(env)) : configuredModels(env).probe;
  return `${where} ${models}${all ? " all" : ""}`;
}

async function probe(env: Env, all: boolean): Promise<ProbeAnswer> {
  // The checks of every model load only when asked for.
  const [answer, checks] = await Promise.all([
    runProbe(env),
    all ? import("./model-checks").then(({ checkModels }) => checkModels(env)) : undefined,
  ]);
  return { ...answer, checkedAt: new Date().toISOString(), ...(checks ? { checks } : {}) };
}

/**
 * The probe's answer from the last PROBE_REUSE_MS, or a new inference (with `all`, also one on each
 * other configured model). Concurrent callers share one run; a failure is not kept, so the next
 * request tries again.
 */
export function recentProbe(env: Env, now = Date.now(), all = false): Promise<ProbeAnswer> {
  const key = configuration(env, all);
  const hit = recent.get(key);
  if (hit && now - hit.at < PROBE_REUSE_MS) return hit.answer;
  const answer = probe(env, all);
  recent.set(key, { at: now, answer });
  answer.catch(() => {
    if (recent.get(key)?.answer === answer) recent.delete(key);
  });
  return answer;
}
