/** A byte range request (RFC 9110 §14.1.2) before it is checked against the object size. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

/** A resolved range: `offset` and `length` inside the object. */
export interface ResolvedRange {
  offset: number;
  length: number;
}

const isSpace = (char: string | undefined) => char === " " || char === "\t";
const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/**
 * Parses a `Range` header holding exactly one byte range: `bytes = first - last`, spaces and tabs
 * allowed around each token. Anything else (no header, other units, several ranges, malformed
 * values) returns undefined: RFC 9110 lets a server ignore Range, so the full object is sent with
 * 200. One left-to-right scan: time is linear in the header's length whatever it holds (a regex
 * with a run of optional spaces on each side of every token backtracked in cubic time).
 */
export function parseRange(header: string | null | undefined): ByteRange | undefined {
  if (!header || header.slice(0, 5).toLowerCase() !== "bytes") return undefined;
  let at = 5;
  const skipSpaces = () => {
    while (isSpace(header[at])) at++;
  };
  const digits = () => {
    const from = at;
    while (isDigit(header[at])) at++;
    return header.slice(from, at);
  };
  skipSpaces();
  if (header[at++] !== "=") return undefined;
  skipSpaces();
  const first = digits();
  skipSpaces();
  if (header[at++] !== "-") return undefined;
  skipSpaces();
  const last = digits();
  skipSpaces();
  if (at !== header.length) return undefined;

  if (first === "" && last === "") return undefined;
  if (first === "") return { suffix: Number(last) };
  const start = Number(first);
  if (last === "") return { start };
  const end = Number(last);
  if (!Number.isSafeInteger(start) || end < start) return undefined;
  return { start, end };
}

/** The bytes a range selects in an object of `size` bytes, or null when it is unsatisfiable (416). */
export function resolveRange(range: ByteRange, size: number): ResolvedRange | null {
  if ("suffix" in range) {
    if (range.suffix === 0 || size === 0) return null;
    const length = Math.min(range.suffix, size);
    return { offset: size - length, length };
  }
  if (!Number.isSafeInteger(range.start) || range.start >= size) return null;
  const end = Math.min(range.end ?? size - 1, size - 1);
  return { offset: range.start, length: end - range.start + 1 };
}

function opaqueTag(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

/** `If-None-Match` with weak comparison (RFC 9110 §13.1.2): `*` or any listed tag equal to `etag`. */
export function ifNoneMatchHits(header: string | null | undefined, httpEtag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const current = opaqueTag(httpEtag);
  return header.split(",").some((tag) => opaqueTag(tag) === current);
}
