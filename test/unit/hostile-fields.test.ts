// docs/security.md E5 for bodies, query strings, path ids and filenames: every schema and helper
// with a pattern gets 8 KB of hostile input and must answer in milliseconds (validation limits such
// as max(200) are checked alongside the patterns, not before them, so the patterns see all of it).
import { describe, expect, it } from "vitest";
import type { z } from "@hono/zod-openapi";
import {
  DescriptionSchema,
  ScheduleAtSchema,
  TitleSchema,
  TodoListQuery,
} from "../../src/todos/todos.schemas";
import { IdParams } from "../../src/core/paging";
import { userOwner } from "../../src/core/owner";
import { ownerUuid } from "../../src/core/owner-uuids";
import { EmailSchema, PasswordSchema, UsernameSchema } from "../../src/routes/users/users.schemas";
import {
  buildObjectKey,
  contentDisposition,
  fileNameFromKey,
  isValidDirectory,
  sanitizeFilename,
} from "../../src/files/file-keys";
import { expectFast, hostile, KB8 } from "../helpers/hostile";

function rejectsFast(schema: z.ZodType, inputs: unknown[]) {
  for (const input of inputs) {
    expectFast(() => expect(schema.safeParse(input).success).toBe(false), String(input));
  }
}

describe("user fields", () => {
  it("username and password rules", () => {
    rejectsFast(UsernameSchema, [`${"a".repeat(KB8)}!`, `${"a.".repeat(KB8 / 2)}!`, ...hostile()]);
    rejectsFast(PasswordSchema, hostile());
  });

  it("e-mail rules, with the shapes that make e-mail patterns backtrack", () => {
    rejectsFast(EmailSchema, [
      `${"a".repeat(KB8)}@`,
      `a@${"a.".repeat(KB8 / 2)}-`,
      `a@${"a-".repeat(KB8 / 2)}`,
      `${"a.".repeat(KB8 / 2)}@x`,
      `${"'+".repeat(KB8 / 2)}@example.com!`,
      `a@${"a".repeat(KB8)}.c`,
      ...hostile(),
    ]);
  });
});

describe("todo fields", () => {
  it("the control-character and lone-surrogate check (UNSAFE_TEXT)", () => {
    const pairs = "\ud83d\ude00".repeat(KB8 / 2);
    for (const schema of [TitleSchema, DescriptionSchema]) {
      rejectsFast(schema, [
        `${pairs}\ud800`,
        `\udc00${pairs}`,
        `${"a".repeat(KB8)}\u0000`,
        "\u0001".repeat(KB8),
      ]);
      // Plain whitespace or é is valid text: only the time counts here.
      for (const value of hostile()) expectFast(() => schema.safeParse(value), value);
    }
    expectFast(() => expect(DescriptionSchema.safeParse(pairs).success).toBe(true));
  });

  it("scheduleAt date-times", () => {
    rejectsFast(ScheduleAtSchema, [
      `2026-01-01T00:00:00${"0".repeat(KB8)}Z`,
      `2026-01-01T00:00:00.${"1".repeat(KB8)}x`,
      `${"2026-".repeat(KB8 / 5)}`,
      ...hostile(),
    ]);
  });

  it("path ids and paging query values", () => {
    rejectsFast(IdParams, [
      { id: `${"1".repeat(KB8)}x` },
      { id: "1".repeat(KB8) },
      ...hostile().map((id) => ({ id })),
    ]);
    rejectsFast(TodoListQuery, [
      { page: "9".repeat(KB8) },
      { pageSize: `${"1".repeat(KB8)}e` },
      { completed: "t".repeat(KB8) },
      ...hostile().map((page) => ({ page })),
    ]);
  });
});

describe("upload directories, filenames and keys", () => {
  it("directories", () => {
    for (const directory of [`${"a/".repeat(KB8 / 2)}.`, `${"a".repeat(KB8)}//`, ...hostile()]) {
      expectFast(() => expect(isValidDirectory(directory)).toBe(false), directory);
    }
  });

  it("filenames into keys and Content-Disposition, and keys back into names", () => {
    for (const name of [`${"a".repeat(KB8)}.txt`, "\u202e".repeat(KB8), "%".repeat(KB8), ...hostile()]) {
      expectFast(() => {
        expect(sanitizeFilename(name).length).toBeGreaterThan(0);
        expect(
          new TextEncoder().encode(buildObjectKey(name, undefined, ownerUuid(userOwner(1)))).byteLength,
        ).toBeLessThanOrEqual(1024);
        expect(contentDisposition(name)).toMatch(/^attachment; filename="/);
        expect(fileNameFromKey(`${"d/".repeat(KB8 / 2)}${name}`).length).toBeGreaterThan(0);
      }, name);
    }
  });
});
