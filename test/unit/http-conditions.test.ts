import { describe, expect, it } from "vitest";
import { ifNoneMatchHits, parseRange, resolveRange } from "../../src/http/conditional-requests";

describe("parseRange", () => {
  it("reads one byte range", () => {
    expect(parseRange("bytes=0-4")).toEqual({ start: 0, end: 4 });
    expect(parseRange("bytes=6-")).toEqual({ start: 6 });
    expect(parseRange("bytes=-5")).toEqual({ suffix: 5 });
    expect(parseRange("Bytes = 1 - 2")).toEqual({ start: 1, end: 2 });
    expect(parseRange("BYTES\t=\t0\t-\t0\t")).toEqual({ start: 0, end: 0 });
    expect(parseRange("bytes=-0")).toEqual({ suffix: 0 });
  });

  it("ignores missing, multiple, malformed and other-unit ranges", () => {
    for (const value of [
      null,
      undefined,
      "",
      "bytes=0-1,3-4",
      "bytes=a-b",
      "bytes=5-2",
      "bytes=-",
      "items=0-1",
      "bytes 0-1",
      "bytes==0-1",
      "bytesx=0-1",
      "bytes=0-1x",
      "bytes=0--1",
      "bytes=1 2-3",
      "bytes=0-1\n",
      "byte=0-1",
      " bytes=0-1",
    ]) {
      expect(parseRange(value), String(value)).toBeUndefined();
    }
  });
});

describe("resolveRange", () => {
  it("clamps to the object and answers null when unsatisfiable", () => {
    expect(resolveRange({ start: 0, end: 4 }, 11)).toEqual({ offset: 0, length: 5 });
    expect(resolveRange({ start: 6, end: 100 }, 11)).toEqual({ offset: 6, length: 5 });
    expect(resolveRange({ start: 6 }, 11)).toEqual({ offset: 6, length: 5 });
    expect(resolveRange({ suffix: 5 }, 11)).toEqual({ offset: 6, length: 5 });
    expect(resolveRange({ suffix: 50 }, 11)).toEqual({ offset: 0, length: 11 });
    expect(resolveRange({ start: 11 }, 11)).toBeNull();
    expect(resolveRange({ start: 50, end: 60 }, 11)).toBeNull();
    expect(resolveRange({ suffix: 0 }, 11)).toBeNull();
    expect(resolveRange({ suffix: 5 }, 0)).toBeNull();
    expect(resolveRange({ start: Number("1".repeat(30)) }, 11)).toBeNull();
  });
});

describe("ifNoneMatchHits", () => {
  const etag = '"abc"';
  it("matches *, the tag, its weak form and lists", () => {
    for (const header of ["*", '"abc"', 'W/"abc"', '"x", W/"abc"', ' "abc" ']) {
      expect(ifNoneMatchHits(header, etag), header).toBe(true);
    }
  });
  it("does not match other tags or nothing", () => {
    for (const header of [null, "", '"abd"', "abc", '"x", "y"']) {
      expect(ifNoneMatchHits(header, etag), String(header)).toBe(false);
    }
  });
});
