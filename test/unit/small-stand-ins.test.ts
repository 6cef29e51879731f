// drizzle-orm's Postgres enum check is a stand-in here (src/shims/drizzle-pg-enum.ts, swapped in by the
// build and by these tests' pool): it still tells an enum from anything else.
import { sql } from "drizzle-orm";
import { pgEnum } from "drizzle-orm/pg-core";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { isPgEnum } from "../../src/shims/drizzle-pg-enum";

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
