import { Failure, type FailureLog } from "../core/failures";

// Apart from the model code (models.ts): naming an AI failure needs none of the providers.

/** What people read when no model is configured; the developer's detail follows it (ENABLE_AI_HINT). */
export const NO_MODEL_SENTENCE = "No AI model is connected yet, so the assistant can't answer.";

export const ENABLE_AI_HINT =
  `${NO_MODEL_SENTENCE} For developers: Workers AI needs a Cloudflare account (run \`wrangler login\`, ` +
  "then `npm run dev:remote`), or set AI_BASE_URL and AI_MODEL in .dev.vars to use an OpenAI-compatible " +
  "server such as Ollama or llama.cpp; `npm run dev` starts an offline demo model (AI_DEMO) when neither is set.";

/** No model can be reached with this configuration (as opposed to a model that failed). */
export class AiUnavailableError extends Failure {
  readonly kind = "unavailable";

  constructor(message = ENABLE_AI_HINT) {
    super(message);
    this.name = "AiUnavailableError";
  }
}

/** The probe's model did not answer within AI_PROBE_TIMEOUT_MS. */
export class ProbeTimeoutError extends Failure {
  readonly kind = "timeout";

  constructor(readonly timeoutMs: number) {
    super(`The AI model did not answer within ${timeoutMs} ms`);
    this.name = "ProbeTimeoutError";
  }

  log(): FailureLog {
    return { level: "warn", event: "ai_probe_timeout", fields: { timeoutMs: this.timeoutMs } };
  }
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
