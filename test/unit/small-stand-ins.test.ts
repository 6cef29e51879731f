// drizzle-orm's Postgres enum check and the Agents SDK's e-mail modules are stand-ins here
// (src/shims/drizzle-pg-enum.ts, src/shims/agents-email.ts, swapped in by the build and by these
// tests' pool): the enum check still tells an enum from anything else, and e-mail fails clearly.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createHeaderBasedEmailResolver } from "agents";
import { sql } from "drizzle-orm";
import { pgEnum } from "drizzle-orm/pg-core";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import type { CounterAgent } from "../../src/agents/counter-agent";
import { isPgEnum } from "../../src/shims/drizzle-pg-enum";
import { freshName } from "../helpers/ws";

describe("drizzle's Postgres enum check", () => {
  it("tells a pg-core enum from other values, as pg-core's own", () => {
    const mood = pgEnum("mood", ["sad", "happy"]);
    expect(isPgEnum(mood)).toBe(true);
    for (const other of [undefined, null, "mood", {}, () => "mood", ["sad"]])
      expect(isPgEnum(other)).toBe(false);
  });

  it("is the one the SQL builder asks: an enum renders as its name, other values as parameters", () => {
    const mood = pgEnum("mood", ["sad", "happy"]);
    const query = new SQLiteAsyncDialect().sqlToQuery(sql`select ${mood}, ${"happy"}`);
    expect(query).toMatchObject({ sql: 'select "mood", ?', params: ["happy"] });
  });
});

describe("the Agents SDK's e-mail stand-in", () => {
  it("fails clearly when an agent would send e-mail", async () => {
    await runInDurableObject(env.CounterAgent.getByName(freshName("email")), async (agent: CounterAgent) => {
      const sending = agent.sendEmail({
        binding: env.EMAIL,
        to: "someone@example.com",
        from: "agent@example.com",
        subject: "hello",
        text: "hello",
      });
      await expect(sending).rejects.toThrow(/e-mail routing is not bundled/);
    });
  });

  it("fails clearly when a route would resolve an agent from e-mail", () => {
    expect(() => createHeaderBasedEmailResolver()).toThrow(/e-mail routing is not bundled/);
  });
});
