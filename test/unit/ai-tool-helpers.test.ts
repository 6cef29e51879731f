// The Agents SDK's chat module takes `jsonSchema` and `tool` from src/shims/ai-tool-helpers.ts instead
// of `ai` (scripts/lib/stand-ins.mjs), so that `ai` loads with the first chat turn, not at start-up.
import { jsonSchema as aiJsonSchema, tool as aiTool } from "ai";
import { describe, expect, it } from "vitest";
import { jsonSchema, tool } from "../../src/shims/ai-tool-helpers";

describe("the AI SDK helpers the agents take at start-up", () => {
  it("are the functions `ai` exports", () => {
    expect(jsonSchema).toBe(aiJsonSchema);
    expect(tool).toBe(aiTool);
  });
});
