// drizzle-orm's Postgres enum check and relational queries, and the Agents SDK's e-mail modules, are
// stand-ins here (src/shims/drizzle-*.ts, src/shims/agents-email.ts, swapped in by the build and by
// these tests' pool): the enum check still tells an enum from anything else, the rest fails clearly.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createHeaderBasedEmailResolver } from "agents";
import { relations, sql } from "drizzle-orm";
import { pgEnum } from "drizzle-orm/pg-core";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import type { CounterAgent } from "../../src/agents/counter-agent";
import { createDb } from "../../src/db/client";
import { notesTable } from "../../src/db/notes-schema";
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

describe("drizzle's relational queries stand-in", () => {
  it("fails clearly when relations are declared; the service's database has no relational API", () => {
    expect(() => relations(notesTable, () => ({}))).toThrow(/relational queries are not bundled/);
    expect(createDb(env.DB).query).toEqual({});
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
