// Runs in the chat Durable Object: one model made of the chat's models (CHAT_MODELS), tried in order.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import type { ModelChoice } from "./models";

// What a stream sends before it says anything: every model would send its own, so a failed model's
// preamble is dropped. Any other part is output the client may see: from there the model is the
// answer, failures included (the rule of the Agents SDK's `fallback`, agents/models/ai-sdk).
const PREAMBLE = new Set<LanguageModelV4StreamPart["type"]>([
  "stream-start",
  "response-metadata",
  "text-start",
  "reasoning-start",
  "tool-input-start",
  "raw",
]);

/** Every model of the chain failed before answering; `cause` is the last failure. */
export class ModelChainError extends Error {
  constructor(
    readonly failed: string[],
    cause: unknown,
  ) {
    super(
      `All models failed (${failed.join(", ")}): ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = "ModelChainError";
  }
}

const isAbort = (err: unknown) => err instanceof Error && err.name === "AbortError";

/** The parts already read, then the rest, each naming the model that answered (`response.modelId`). */
function answeredBy(
  modelId: string,
  head: LanguageModelV4StreamPart[],
  rest: ReadableStreamDefaultReader<LanguageModelV4StreamPart>,
) {
  const named = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart =>
    part.type === "response-metadata" ? { ...part, modelId } : part;
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      if (!head.some((part) => part.type === "response-metadata"))
        head.push({ type: "response-metadata", modelId });
      for (const part of head) controller.enqueue(named(part));
    },
    async pull(controller) {
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(named(value));
    },
    cancel: (reason) => rest.cancel(reason),
  });
}

/** Reads `result`'s preamble: the stream to hand on once the model says something, or why it failed first. */
async function commit(
  modelId: string,
  result: LanguageModelV4StreamResult,
): Promise<{ ok: true; result: LanguageModelV4StreamResult } | { ok: false; error: unknown }> {
  const reader = result.stream.getReader();
  const head: LanguageModelV4StreamPart[] = [];
  let failure: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === "error") {
        failure = value.error;
        break;
      }
      if (value.type === "finish" && value.finishReason.unified === "error") {
        failure = new Error(`${modelId} ended its stream in an error before answering`);
        break;
      }
      head.push(value);
      if (!PREAMBLE.has(value.type)) break;
    }
  } catch (err) {
    if (isAbort(err)) throw err;
    failure = err;
  }
  if (failure === undefined)
    return { ok: true, result: { ...result, stream: answeredBy(modelId, head, reader) } };
  await reader.cancel().catch(() => undefined);
  return { ok: false, error: failure };
}

export interface ChainEvents {
  /** A model failed before producing output; the next one, if any, is asked. */
  onFailure?(leg: ModelChoice, error: unknown): void;
  /** A model produced output: it answers this call. */
  onAnswer?(leg: ModelChoice): void;
}

/**
 * One model over `legs`: a call goes to the first, and to the next when one fails before producing
 * output (an error, a refused request, a stream that breaks first). A stream that fails after output
 * is the answer: its error reaches the client, no other model starts over. The answering model is the
 * result's `response.modelId`. All failing: one error, the last failure as its cause.
 */
export function modelChain(legs: ModelChoice[], events: ChainEvents = {}): LanguageModelV4 {
  const first = legs[0];
  if (!first) throw new Error("modelChain needs at least one model");

  async function tryEach<T>(
    run: (leg: ModelChoice) => Promise<{ ok: true; value: T } | { ok: false; error: unknown }>,
  ) {
    let last: unknown;
    for (const leg of legs) {
      let outcome: { ok: true; value: T } | { ok: false; error: unknown };
      try {
        outcome = await run(leg);
      } catch (err) {
        if (isAbort(err)) throw err;
        outcome = { ok: false, error: err };
      }
      if (outcome.ok) {
        events.onAnswer?.(leg);
        return outcome.value;
      }
      last = outcome.error;
      events.onFailure?.(leg, last);
    }
    throw legs.length === 1
      ? last
      : new ModelChainError(
          legs.map((leg) => leg.modelId),
          last,
        );
  }

  return {
    specificationVersion: "v4",
    provider: first.model.provider,
    modelId: first.modelId,
    supportedUrls: first.model.supportedUrls,
    doGenerate: (options: LanguageModelV4CallOptions) =>
      tryEach<LanguageModelV4GenerateResult>(async (leg) => {
        const result = await leg.model.doGenerate(options);
        return { ok: true, value: { ...result, response: { ...result.response, modelId: leg.modelId } } };
      }),
    doStream: (options: LanguageModelV4CallOptions) =>
      tryEach<LanguageModelV4StreamResult>(async (leg) => {
        const opened = await commit(leg.modelId, await leg.model.doStream(options));
        return opened.ok ? { ok: true, value: opened.result } : opened;
      }),
  };
}
