import { AiUnavailableError, ProbeTimeoutError } from "./ai-errors";
import { chatModels, type ModelChoice, probeModel, titleModel } from "./models";
import { inference } from "./probe";

type Role = "chat" | "title";

/** How one model answered the probe prompt: the client reads the verdict, never a provider's internals. */
export type ModelCheck =
  | { model: string; roles: Role[]; ok: true; latencyMs: number; finishReason: string }
  | { model: string; roles: Role[]; ok: false; error: string };

function verdict(err: unknown): string {
  if (err instanceof AiUnavailableError || err instanceof ProbeTimeoutError) return err.message;
  return "The model failed to answer";
}

/** Each configured model besides the probe's, once, at the same time: what `?models=all` adds. */
export async function checkModels(env: Env): Promise<ModelCheck[]> {
  const probe = probeModel(env).modelId;
  const byModel = new Map<string, { choice: ModelChoice; roles: Role[] }>();
  const add = (choice: ModelChoice, role: Role) => {
    if (choice.modelId === probe) return;
    const entry = byModel.get(choice.modelId) ?? { choice, roles: [] };
    entry.roles.push(role);
    byModel.set(choice.modelId, entry);
  };
  for (const choice of chatModels(env)) add(choice, "chat");
  add(titleModel(env), "title");
  return Promise.all(
    [...byModel.values()].map(async ({ choice, roles }): Promise<ModelCheck> => {
      try {
        const answer = await inference(env, choice);
        return {
          model: choice.modelId,
          roles,
          ok: true,
          latencyMs: answer.latencyMs,
          finishReason: answer.result.finishReason,
        };
      } catch (err) {
        return { model: choice.modelId, roles, ok: false, error: verdict(err) };
      }
    }),
  );
}
