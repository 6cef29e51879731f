// docs/security.md E5: every pattern and parser that reads a request header or the path takes time
// linear in its input. Each gets 8 KB crafted to make a backtracking pattern explode (runs of
// optional whitespace, repeated separators, a bad last character) and must answer in milliseconds.
// The Range regex this replaced took seconds on 3 KB of such input.
import { describe, expect, it } from "vitest";
import { AGENT_NAME } from "../../src/agents/agent-paths";
import { bearerToken } from "../../src/auth/bearer";
import { isJsonContentType } from "../../src/http/json-body";
import app from "../../src/app";
import { publicApiPaths } from "../../src/http/require-auth";
import { ifNoneMatchHits, parseRange } from "../../src/http/conditional-requests";
import { storeUpload } from "../../src/files/form-upload";
import { InvalidUploadError } from "../../src/files/upload-errors";
import { verifyToken } from "../../src/auth/tokens";
import { expectFast, expectFastAsync, hostile, KB8 } from "../helpers/hostile";
import { untouchable } from "../helpers/faults";

const isPublicApiPath = publicApiPaths(app);
const SECRET = "test-only-secret-that-is-long-enough-for-hs256-0123456789abcdef";

describe("Range", () => {
  it("parses 8 KB of spaces, tabs, digits and separators in linear time", () => {
    for (const header of [
      `bytes=${" ".repeat(KB8 / 2)}-${" ".repeat(KB8 / 2)}x`,
      `bytes=${" \t".repeat(KB8 / 4)}1${" \t".repeat(KB8 / 4)}-x`,
      `bytes${" ".repeat(KB8)}=`,
      `bytes=${"1".repeat(KB8)}-${"2".repeat(KB8)}!`,
      `bytes=${"0-1,".repeat(KB8 / 4)}`,
      `bytes=-${"-".repeat(KB8)}`,
      ...hostile(),
    ]) {
      expectFast(() => expect(parseRange(header)).toBeUndefined(), header);
    }
  });

  it("still reads a valid range padded with 8 KB of whitespace", () => {
    const pad = " \t".repeat(KB8 / 4);
    expectFast(() =>
      expect(parseRange(`bytes${pad}=${pad}5${pad}-${pad}9${pad}`)).toEqual({ start: 5, end: 9 }),
    );
  });
});

describe("If-None-Match", () => {
  it("compares 8 KB lists of tags, commas, spaces and W/ prefixes in linear time", () => {
    for (const header of [
      ",".repeat(KB8),
      "W/".repeat(KB8 / 2),
      '"a", '.repeat(KB8 / 5),
      `${" ".repeat(KB8)}x`,
      `W/${" ".repeat(KB8)}"abc"x`,
      ...hostile(),
    ]) {
      expectFast(() => expect(ifNoneMatchHits(header, '"abc"')).toBe(false), header);
    }
  });
});

describe("Authorization", () => {
  it("splits 8 KB of whitespace runs in linear time", () => {
    for (const header of [
      `Bearer${" ".repeat(KB8)}x y`,
      " \t".repeat(KB8 / 2),
      `Bearer ${"a ".repeat(KB8 / 2)}`,
      `${"Bearer".repeat(KB8 / 6)}`,
      ...hostile(),
    ]) {
      expectFast(() => expect(bearerToken(header)).toBeNull(), header);
    }
  });

  it("verifies 8 KB tokens made of dots, base64 and JSON fragments quickly", async () => {
    for (const token of [
      ".".repeat(KB8),
      "a.".repeat(KB8 / 2),
      `e30.${"e30".repeat(KB8 / 3)}.x`,
      ...hostile(),
    ]) {
      await expectFastAsync(async () => expect(await verifyToken(SECRET, token)).toBeNull(), token);
    }
  });
});

describe("Content-Type", () => {
  it("checks 8 KB JSON media types (suffixes, parameters, whitespace) in linear time", () => {
    for (const value of [
      `application/${"a".repeat(KB8)}`,
      `application/json${" ".repeat(KB8)}x`,
      `application/${"a.".repeat(KB8 / 2)}+jsonx`,
      `application/${"a+".repeat(KB8 / 2)}json!`,
      `application/${"-".repeat(KB8)}+`,
      ...hostile(),
    ]) {
      expectFast(() => expect(isJsonContentType(value)).toBe(false), value);
    }
    expectFast(() => expect(isJsonContentType(`application/json;${" a=b;".repeat(KB8 / 5)}`)).toBe(true));
  });

  it("rejects 8 KB multipart boundaries and media types with a 400, reading nothing", async () => {
    const bucket = untouchable<R2Bucket>("R2");
    for (const contentType of [
      `multipart/form-data; boundary=${"-".repeat(KB8)}`,
      `multipart/form-data; boundary="${"a ".repeat(KB8 / 2)}`,
      `multipart/form-data${" ".repeat(KB8)}x`,
      `multipart/form-data;${" boundary=x;".repeat(KB8 / 12)}`,
      `multipart/form-data; boundary=${"=".repeat(KB8)}`,
    ]) {
      const body = `--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nhi\r\n--x--\r\n`;
      const request = () =>
        new Request("http://service.test/api/upload", {
          method: "POST",
          headers: { "Content-Type": contentType },
          body,
        });
      await expectFastAsync(
        () =>
          expect(
            storeUpload(bucket, request(), {
              maxBytes: 1024,
              admit: async () => ({
                owner: { kind: "user", userId: 1 },
                room: 1024,
                overQuota: () => new Error("over quota"),
              }),
              beforeVisible: async () => {},
            }),
          ).rejects.toThrow(InvalidUploadError),
        contentType,
      );
    }
  });
});

describe("paths", () => {
  it("classifies 8 KB public and agent paths in linear time", () => {
    expect(isPublicApiPath("/api/login")).toBe(true);
    for (const path of [
      `/api/download/${"a".repeat(KB8)}/`,
      `/api/download${"/".repeat(KB8)}`,
      `/api/download/${"%2F".repeat(KB8 / 3)}/x`,
    ]) {
      expectFast(() => expect(isPublicApiPath(path)).toBe(false), path);
    }
    for (const name of [`${"a".repeat(KB8)}.`, `${"-_".repeat(KB8 / 2)}!`, ...hostile()]) {
      expectFast(() => expect(AGENT_NAME.test(name)).toBe(false), name);
    }
  });
});
