import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../../src/app";
import { PROBE_MAX_TOKENS, PROBE_PROMPT } from "../../src/ai/probe";
import { api, BASE, expectError, type ApiResult, expectData } from "../helpers/http";
// Each request from an address of its own: /ai/health is limited per client IP (ai-health-limits.test.ts).
import { fromFreshIp } from "../helpers/client-ip";
import { type OpenAPIObject } from "openapi3-ts/oas31";
import { AiHealthSchema } from "../../src/routes/ai/ai.routes";

/** GET /ai/health with some env values replaced, timed. */
async function probeWith(overrides: Partial<Env>, query = ""): Promise<ApiResult & { ms: number }> {
  const ctx = createExecutionContext();
  const started = performance.now();
  const res = await app.fetch(
    new Request(`${BASE}/ai/health${query}`, { headers: fromFreshIp() }),
    { ...env, ...overrides },
    ctx,
  );
  const text = await res.text();
  const ms = performance.now() - started;
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text), ms };
}

describe("GET /ai/health", () => {
  it("runs one inference on the probe model and returns its result", async () => {
    const data = expectData(await api("/ai/health", { headers: fromFreshIp() }), 200, AiHealthSchema);
    expect(data).toMatchObject({
      provider: "workers-ai",
      model: env.PROBE_MODEL,
      result: {
        response: "AI_OK",
        finishReason: "stop",
        usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      },
    });
    expect(data.latencyMs).toBeGreaterThanOrEqual(0);
    expect(data.models).toEqual({
      probe: env.PROBE_MODEL,
      chat: env.CHAT_MODELS.split(","),
      title: env.TITLE_MODEL,
    });
    expect(data.checks).toBeUndefined();

    const calls = await (env.AI as unknown as { calls(): Promise<{ model: string; inputs: any }[]> }).calls();
    // The stand-in is shared with every file of the run: another test's chat may call it meanwhile.
    const call = calls.findLast((c) => c.inputs.messages?.[0]?.content === PROBE_PROMPT)!;
    expect(call.model).toBe("@cf/meta/llama-3.2-1b-instruct");
    expect(call.inputs.max_tokens).toBe(PROBE_MAX_TOKENS);
    expect(call.inputs.max_tokens).toBe(20);
    expect(call.inputs.messages).toEqual([{ role: "user", content: PROBE_PROMPT }]);
    expect(PROBE_PROMPT).toContain("AI_OK");
  });

  it("answers 503 within 2 s with how to enable AI when only the local binding exists (no Cloudflare login)", async () => {
    // Another model than the first test's: an answer is reused per model for 30 s.
    const res = await probeWith({ AI: env.LOCAL_AI_BINDING, PROBE_MODEL: "@cf/meta/llama-3.2-3b-instruct" });
    expect(res.ms).toBeLessThan(2_000);
    const error = expectError(res, 503);
    expect(error.message).toContain("npm run dev:remote");
    expect(error.message).toContain("wrangler login");
    expect(error.message).toMatch(/AI_BASE_URL.*AI_MODEL/);
  });

  it("gives up with 504 when the model never answers, within its timeout", async () => {
    const res = await probeWith({ PROBE_MODEL: "@test/never-answers", AI_PROBE_TIMEOUT_MS: "300" });
    expect(res.ms).toBeGreaterThanOrEqual(290);
    expect(res.ms).toBeLessThan(2_000);
    expectError(res, 504, "The AI model did not answer within 300 ms");
  });

  it("passes a model failure to the global error handler: 500 envelope without internals", async () => {
    const res = await probeWith({ PROBE_MODEL: "@test/fail" });
    expectError(res, 500, "Internal server error");
    expect(res.text).not.toMatch(/InferenceUpstreamError|scripted|stack/);
  });

  it("answers 503 when AI_BASE_URL is set without AI_MODEL", async () => {
    const res = await probeWith({ AI_BASE_URL: "http://127.0.0.1:9/v1" });
    expectError(res, 503, /AI_MODEL/);
  });

  it("B8: ?models=all: one more inference on each other configured model, a failing one reported without internals", async () => {
    const [good, failing] = [`@cf/test/good-${crypto.randomUUID()}`, `@test/fail-${crypto.randomUUID()}`];
    const res = await probeWith({ CHAT_MODELS: `${good},${failing},${env.PROBE_MODEL}` }, "?models=all");
    const data = expectData(res, 200, AiHealthSchema);
    expect(data.model).toBe(env.PROBE_MODEL);
    // The probe model answered once already; the title model here is the probe's.
    expect(data.checks).toEqual([
      { model: good, roles: ["chat"], ok: true, latencyMs: expect.any(Number), finishReason: "stop" },
      { model: failing, roles: ["chat"], ok: false, error: "The model failed to answer" },
    ]);
    expect(res.text).not.toMatch(/InferenceUpstreamError|scripted/);
    const calls = (await (env.AI as unknown as { calls(): Promise<{ model: string }[]> }).calls()).map(
      (c) => c.model,
    );
    expect(calls.filter((m) => m === good || m === failing)).toHaveLength(2);
  });

  it("?models with anything but `all` is 400", async () => {
    for (const query of ["?models=none", "?models=", "?models=ALL"]) {
      expectError(await probeWith({}, query), 400);
    }
  });

  it("is documented as public in the OpenAPI document", async () => {
    const doc = await api<OpenAPIObject>("/openapi.json");
    const op = doc.body.paths!["/ai/health"]!.get!;
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "429", "500", "503", "504"]),
    );
  });
});
