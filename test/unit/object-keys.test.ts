import { parse } from "content-disposition";
import { describe, expect, it } from "vitest";
import { orgOwner, userOwner } from "../../src/core/owner";
import { ownerOfUuid, ownerUuid } from "../../src/core/owner-uuids";
import {
  buildObjectKey,
  ownerOfKey,
  contentDisposition,
  fileNameFromKey,
  isStorableKey,
  isValidDirectory,
  MAX_KEY_BYTES,
  sanitizeFilename,
  truncateUtf8,
  utf8Length,
} from "../../src/files/file-keys";

const UUID = "3f0c2a9e-8d7b-4c1e-9a55-6b2f7d1e0c44";

describe("isValidDirectory", () => {
  it("accepts segments of [A-Za-z0-9._-]", () => {
    for (const dir of ["a", "reports/2026", "a.b/c-d/e_f", "..a", "a..", "x".repeat(256)]) {
      expect(isValidDirectory(dir), dir).toBe(true);
    }
  });

  it("rejects dot segments, empty segments, slashes at the ends, other characters and long values", () => {
    for (const dir of [
      "",
      ".",
      "..",
      "a/./b",
      "a/../b",
      "/a",
      "a/",
      "a//b",
      "a\\b",
      "%2e",
      "a b",
      "é",
      "a\u0000",
      "x".repeat(257),
    ]) {
      expect(isValidDirectory(dir), JSON.stringify(dir)).toBe(false);
    }
  });
});

describe("sanitizeFilename", () => {
  it("replaces separators, control and bidi characters, keeps the rest", () => {
    expect(sanitizeFilename("../../x")).toBe(".._.._x");
    expect(sanitizeFilename("a/b\\c")).toBe("a_b_c");
    expect(sanitizeFilename("n\u0000c\r\n\u007f\u0085")).toBe("n_c____");
    expect(sanitizeFilename("evil\u202Egpj.exe")).toBe("evil_gpj.exe");
    expect(sanitizeFilename('q"u;o te 😀.txt')).toBe('q"u;o te 😀.txt');
    expect(sanitizeFilename("\ud800x")).toBe("\ufffdx");
  });

  it("gives empty names the default `file`", () => {
    expect(sanitizeFilename("")).toBe("file");
  });
});

describe("truncateUtf8", () => {
  it("never splits a code point", () => {
    expect(truncateUtf8("éé", 3)).toBe("é");
    expect(truncateUtf8("😀😀", 7)).toBe("😀");
    expect(truncateUtf8("abc", 10)).toBe("abc");
  });
});

describe("buildObjectKey", () => {
  it("is <uuid>-<name> or <directory>/<uuid>-<name>", () => {
    expect(buildObjectKey("a.txt", undefined, UUID)).toBe(`${UUID}-a.txt`);
    expect(buildObjectKey("a.txt", "d/e", UUID)).toBe(`d/e/${UUID}-a.txt`);
    expect(buildObjectKey("x/y", undefined, UUID)).toBe(`${UUID}-x_y`);
    expect(buildObjectKey("", undefined, UUID)).toBe(`${UUID}-file`);
  });

  it("stays within 1,024 UTF-8 bytes and keeps a short extension", () => {
    const dir = "d".repeat(256);
    for (const name of [
      "a".repeat(2000) + ".pdf",
      "é".repeat(1000) + ".txt",
      "😀".repeat(400),
      "b".repeat(1000) + ".verylongextensionname",
    ]) {
      const key = buildObjectKey(name, dir, UUID);
      expect(utf8Length(key)).toBeLessThanOrEqual(MAX_KEY_BYTES);
      expect(key.startsWith(`${dir}/${UUID}-`)).toBe(true);
      expect(key).not.toContain("\ufffd");
    }
    expect(buildObjectKey("a".repeat(2000) + ".pdf", dir, UUID).endsWith(".pdf")).toBe(true);
  });

  it("names its owner in a fresh UUID, which keys from before shards (version 4) do not", () => {
    const owner = userOwner(42);
    const first = buildObjectKey("a", "d", ownerUuid(owner));
    expect(first).toMatch(/^d\/[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-a$/);
    expect(buildObjectKey("a", "d", ownerUuid(owner))).not.toBe(first);
    expect(ownerOfKey(first)).toEqual(owner);
    expect(fileNameFromKey(first)).toBe("a");
    for (const other of [
      orgOwner(7),
      userOwner(Number.MAX_SAFE_INTEGER),
      orgOwner(Number.MAX_SAFE_INTEGER),
    ]) {
      expect(ownerOfUuid(ownerUuid(other))).toEqual(other);
    }
    expect(ownerOfKey(`d/${UUID}-a`)).toBeNull();
    expect(ownerOfKey(`${crypto.randomUUID()}-a`)).toBeNull();
    expect(ownerOfKey("no-uuid-here.txt")).toBeNull();
    // An id no owner has (0) names nobody.
    expect(ownerOfUuid("00000000-0000-8000-8000-000000000000")).toBeNull();
  });
});

describe("fileNameFromKey", () => {
  it("drops the directory and the UUID prefix", () => {
    expect(fileNameFromKey(`docs/2026/${UUID}-report.pdf`)).toBe("report.pdf");
    expect(fileNameFromKey(`${UUID}-a-b.txt`)).toBe("a-b.txt");
    expect(fileNameFromKey("plain.txt")).toBe("plain.txt");
    expect(fileNameFromKey("dir/")).toBe("");
  });
});

describe("isStorableKey", () => {
  it("accepts 1..1024 UTF-8 bytes", () => {
    expect(isStorableKey("")).toBe(false);
    expect(isStorableKey("é".repeat(512))).toBe(true);
    expect(isStorableKey("é".repeat(513))).toBe(false);
  });
});

describe("contentDisposition", () => {
  it("sends an ASCII fallback and the UTF-8 name, which parse() gives back", () => {
    for (const name of [
      "plain.txt",
      'q"uote.txt',
      "back\\slash",
      "semi;colon",
      "%41.txt",
      "it's (1)*.txt",
      "Ünïcödé 😀.txt",
    ]) {
      const header = contentDisposition(name);
      expect(header).toMatch(
        /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+$/,
      );
      expect(parse(header).parameters.filename).toBe(name);
    }
    expect(contentDisposition("ü.txt")).toContain('filename="_.txt"');
  });

  it("strips control characters and falls back to `file` when nothing is left", () => {
    expect(parse(contentDisposition("a\r\nb\u0000.txt")).parameters.filename).toBe("ab.txt");
    expect(parse(contentDisposition("\r\n")).parameters.filename).toBe("file");
  });
});
