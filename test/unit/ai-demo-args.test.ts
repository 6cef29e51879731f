// scripts/lib/ai-demo.mjs: when `npm run dev` turns the offline demo model on.
import { describe, expect, it } from "vitest";
import { demoModelArgs } from "../../scripts/lib/ai-demo.mjs";

const DEV = ["--local", "--var", "LOG_RESET_LINKS:true"];
const ON = ["--var", "AI_DEMO:true"];

describe("npm run dev and the offline demo model", () => {
  it("turns it on under --local when no model is chosen", () => {
    expect(demoModelArgs(DEV, "JWT_SECRET=abc\nCORS_ORIGINS=http://localhost:5173\n")).toEqual(ON);
    expect(demoModelArgs(DEV, "")).toEqual(ON);
    // An empty or commented-out AI_BASE_URL chooses nothing.
    expect(demoModelArgs(DEV, 'AI_BASE_URL=\nAI_MODEL=""\n# AI_BASE_URL=http://x/v1\n')).toEqual(ON);
  });

  it("leaves it off when a model or AI_DEMO itself is chosen, and outside --local", () => {
    expect(demoModelArgs(DEV, "AI_BASE_URL=http://127.0.0.1:11434/v1\nAI_MODEL=qwen3\n")).toEqual([]);
    expect(demoModelArgs(DEV, 'AI_BASE_URL="http://127.0.0.1:11434/v1"\n')).toEqual([]);
    expect(demoModelArgs(DEV, "AI_DEMO=false\n")).toEqual([]);
    expect(demoModelArgs([...DEV, "--var", "AI_BASE_URL:http://127.0.0.1:1/v1"], "")).toEqual([]);
    expect(demoModelArgs(["--var", "LOG_RESET_LINKS:true"], "")).toEqual([]);
  });
});
