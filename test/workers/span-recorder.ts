// A streaming tail worker of the service under test (vitest.config.ts `streamingTails`): it receives the
// trace events of every invocation, as Workers Observability would, and keeps the GenAI spans
// (`invoke_agent`, `chat {model}`, `execute_tool {name}`) with their attributes for the tests to read.
// A request sent with `X-Test-Trace: <id>` marks the spans of its invocation with that id.
import { WorkerEntrypoint } from "cloudflare:workers";

export interface RecordedSpan {
  name: string;
  spanId: string;
  parentId: string | undefined;
  traceId: string;
  /** The `X-Test-Trace` header of the request whose invocation made the span. */
  testTrace: string | undefined;
  attributes: Record<string, string | number | boolean>;
  outcome?: string;
}

interface TailEvent {
  spanContext: { traceId: string; spanId?: string };
  event:
    | { type: "spanOpen"; name: string; spanId: string }
    | { type: "attributes"; info: { name: string; value: string | number | boolean }[] }
    | { type: "spanClose"; outcome: string }
    | { type: string };
}

const GEN_AI = /^(invoke_agent|chat|execute_tool)( |$)/;
const KEPT = 500;
const finished: RecordedSpan[] = [];

interface Onset {
  event: { info?: { headers?: { name: string; value: string }[] } };
}

export default {
  tailStream(onset: Onset) {
    const testTrace = onset.event.info?.headers?.find((h) => h.name.toLowerCase() === "x-test-trace")?.value;
    const open = new Map<string, RecordedSpan>();
    return ({ spanContext, event }: TailEvent) => {
      if (event.type === "spanOpen" && "name" in event && GEN_AI.test(event.name)) {
        const { name, spanId } = event as { name: string; spanId: string };
        open.set(spanId, {
          name,
          spanId,
          parentId: spanContext.spanId,
          traceId: spanContext.traceId,
          testTrace,
          attributes: {},
        });
        return;
      }
      const span = spanContext.spanId === undefined ? undefined : open.get(spanContext.spanId);
      if (!span) return;
      if (event.type === "attributes" && "info" in event) {
        for (const { name, value } of event.info) span.attributes[name] = value;
      } else if (event.type === "spanClose" && "outcome" in event) {
        span.outcome = event.outcome;
        open.delete(span.spanId);
        finished.push(span);
        if (finished.length > KEPT) finished.shift();
      }
    };
  },
};

export class SpanRecorder extends WorkerEntrypoint {
  /** The GenAI spans closed so far, oldest first (the last 500, from every test file's invocations). */
  async spans(): Promise<RecordedSpan[]> {
    return finished;
  }
}
