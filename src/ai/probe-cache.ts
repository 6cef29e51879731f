import { openAICompatible, probeModelName } from "../core/config";
import { runProbe } from "./probe";

/** How long one answer serves GET /ai/health: a flood costs one inference per isolate per window. */
export const PROBE_REUSE_MS = 30_000;

type ProbeAnswer = Awaited<ReturnType<typeof runProbe>> & { checkedAt: string };

const recent = new Map<string, { at: number; answer: Promise<ProbeAnswer> }>();

// One entry per model configuration, so changing the model never serves the old one's answer.
function configuration(env: Env): string {
  const compatible = openAICompatible(env);
  return compatible
    ? `openai-compatible ${compatible.baseURL} ${compatible.models[0]}`
    : `workers-ai ${probeModelName(env)}`;
}

/**
 * The probe's answer from the last PROBE_REUSE_MS, or a new inference. Concurrent callers share one
 * inference; a failure is not kept, so the next request tries again.
 */
export function recentProbe(env: Env, now = Date.now()): Promise<ProbeAnswer> {
  const key = configuration(env);
  const hit = recent.get(key);
  if (hit && now - hit.at < PROBE_REUSE_MS) return hit.answer;
  const answer = runProbe(env).then((result) => ({ ...result, checkedAt: new Date().toISOString() }));
  recent.set(key, { at: now, answer });
  answer.catch(() => {
    if (recent.get(key)?.answer === answer) recent.delete(key);
  });
  return answer;
}
