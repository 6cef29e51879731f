/** R2 multipart rules: at most 10,000 parts; every part but the last the same size, at least 5 MiB. */
export const MAX_PARTS = 10_000;
export const MIN_PART_SIZE = 5 * 1024 * 1024;
const MiB = 1024 * 1024;
/** One part is one request body: Cloudflare refuses bodies over 100 MB (Free and Pro plans). */
export const MAX_PART_SIZE = 95 * MiB;
/** The largest resumable upload: 10,000 parts of the largest part size (about 928 GiB). */
export const MAX_RESUMABLE_BYTES = MAX_PARTS * MAX_PART_SIZE;

/**
 * The smallest allowed part size (less to resend after a dropped connection), grown in whole MiB
 * when the declared size would otherwise need more than 10,000 parts.
 */
export function partSizeFor(size: number | undefined): number {
  if (size === undefined) return MIN_PART_SIZE;
  return Math.max(MIN_PART_SIZE, Math.ceil(size / MAX_PARTS / MiB) * MiB);
}

export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

export interface PartLayout {
  partSize: number;
  /** Declared total size, or null when the client did not say. */
  size: number | null;
}

/** Why a part of `length` bytes cannot be part `partNumber`, or null when it fits. */
export function partSizeProblem(layout: PartLayout, partNumber: number, length: number): string | null {
  if (length === 0) return "Empty part";
  if (length > layout.partSize) return `Part too large: parts are ${layout.partSize} bytes`;
  if (layout.size === null) return null;
  const count = partCount(layout.size, layout.partSize);
  if (partNumber > count) return `Invalid part number: this upload has ${count} parts`;
  const expected = partNumber < count ? layout.partSize : layout.size - (count - 1) * layout.partSize;
  return length === expected ? null : `Part ${partNumber} must be ${expected} bytes, got ${length}`;
}

export interface StoredPart {
  partNumber: number;
  size: number;
}

/**
 * Why these parts (sorted by number) do not make the whole file, or null when they do:
 * parts 1..n without gaps, all but the last exactly partSize, and n parts for a declared size.
 */
export function completionProblem(layout: PartLayout, parts: readonly StoredPart[]): string | null {
  const expectedCount =
    layout.size === null ? (parts.at(-1)?.partNumber ?? 0) : partCount(layout.size, layout.partSize);
  if (expectedCount === 0) return "No parts uploaded";
  const have = new Set(parts.map((part) => part.partNumber));
  const missing: number[] = [];
  for (let n = 1; n <= expectedCount && missing.length < 10; n++) if (!have.has(n)) missing.push(n);
  if (missing.length > 0) return `Missing parts: ${missing.join(", ")}`;
  const short = parts.find((part, i) => i < parts.length - 1 && part.size !== layout.partSize);
  return short ? `Part ${short.partNumber} must be ${layout.partSize} bytes, got ${short.size}` : null;
}
