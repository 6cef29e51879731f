// Runs in the chat Durable Object: what one turn's model calls cost, as the model reported it.
import type { LanguageModelUsage, TextStreamPart, ToolSet } from "ai";

/** One model call of a turn (a step: the first answer, or the answer after a tool ran). */
export interface MeteredCall {
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** The model reported nothing (a stopped or broken stream): output counted from what streamed. */
  estimated: boolean;
}

/** What an assistant message carries in its metadata: the model that answered and the turn's tokens. */
export interface AnswerMetadata {
  model: string;
  usage: { inputTokens: number; outputTokens: number };
}

// When the model reports no usage, about 4 characters make a token.
const CHARS_PER_TOKEN = 4;

/**
 * Counts a turn's calls from the stream's callbacks and books each as it ends, however it ends (a
 * step's end, a step that broke, a stop). A call that failed before producing anything costs nothing.
 */
export class TurnMeter {
  private streamedChars = 0;
  // Set by the model chain once a model produces output: nothing streams before that.
  private answering = "";
  private shown = { inputTokens: 0, outputTokens: 0 };
  /** Output tokens of the turn's calls booked so far: what bounds its next step (src/agents/chat-turn.ts). */
  outputTokens = 0;

  constructor(private readonly book: (call: MeteredCall) => Promise<void> | void) {}

  /** The model chain committed to `model` for the current call. */
  readonly answeredBy = (model: string) => {
    this.answering = model;
  };

  readonly onChunk = ({ chunk }: { chunk: { type: string; text?: string } }) => {
    if (chunk.type === "text-delta" || chunk.type === "reasoning-delta") {
      this.streamedChars += chunk.text?.length ?? 0;
    }
  };

  readonly onStepEnd = (step: { usage: LanguageModelUsage; response: { modelId: string } }) => {
    const reported = step.usage.outputTokens;
    const call = {
      model: step.response.modelId,
      inputTokens: step.usage.inputTokens ?? 0,
      outputTokens: reported ?? this.estimate(),
      estimated: reported === undefined,
    };
    this.streamedChars = 0;
    this.outputTokens += call.outputTokens;
    return this.book(call);
  };

  /** A call that broke after output, or a stopped turn: what it streamed is estimated. */
  readonly onStopped = () => {
    if (this.streamedChars === 0) return;
    const call = { model: this.answering, inputTokens: 0, outputTokens: this.estimate(), estimated: true };
    this.streamedChars = 0;
    this.outputTokens += call.outputTokens;
    return this.book(call);
  };

  /** For `toUIMessageStream`: each step's end and the turn's finish name the model and the tokens so far. */
  readonly messageMetadata = ({ part }: { part: TextStreamPart<ToolSet> }): AnswerMetadata | undefined => {
    if (part.type === "finish-step") {
      this.shown = {
        inputTokens: this.shown.inputTokens + (part.usage.inputTokens ?? 0),
        outputTokens: this.shown.outputTokens + (part.usage.outputTokens ?? 0),
      };
      return { model: part.response.modelId, usage: this.shown };
    }
    if (part.type === "finish") {
      const { inputTokens = 0, outputTokens = 0 } = part.totalUsage;
      return { model: this.answering, usage: { inputTokens, outputTokens } };
    }
    return undefined;
  };

  private estimate(): number {
    return Math.ceil(this.streamedChars / CHARS_PER_TOKEN);
  }
}
