import { base64url } from "../core/base64url";

// What an Idempotency-Key retry must repeat: method, path with query, and body, as a SHA-256.

const encoder = new TextEncoder();
// RFC 2046 allows boundaries of 1 to 70 characters; a longer one is hashed as it comes.
const MAX_BOUNDARY = 70;
const BOUNDARY_MARK = encoder.encode("\u0000boundary\u0000");

function fingerprint(method: string, target: string, bodyDigest: ArrayBuffer): string {
  return `${method} ${target} ${base64url(new Uint8Array(bodyDigest))}`;
}

/** The fingerprint of a request whose body is already in memory (the JSON routes: at most 1 MiB). */
export async function bufferedFingerprint(
  method: string,
  target: string,
  body: ArrayBuffer,
): Promise<string> {
  return fingerprint(method, target, await crypto.subtle.digest("SHA-256", body));
}

/** The multipart boundary of a Content-Type, when it has a usable one. */
function boundaryOf(contentType: string | null): Uint8Array | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))\s*(?:;|$)/i.exec(contentType ?? "");
  const boundary = match?.[1] ?? match?.[2];
  return boundary && boundary.length <= MAX_BOUNDARY ? encoder.encode(boundary) : null;
}

function indexOf(data: Uint8Array, pattern: Uint8Array, from: number): number {
  for (let i = data.indexOf(pattern[0]!, from); i !== -1 && i <= data.length - pattern.length;) {
    let j = 1;
    while (j < pattern.length && data[i + j] === pattern[j]) j++;
    if (j === pattern.length) return i;
    i = data.indexOf(pattern[0]!, i + 1);
  }
  return -1;
}

/**
 * A streamed body's SHA-256, computed as it passes through `stream` without keeping it: the upload
 * handler reads at its own pace, and the hash follows. A multipart boundary is hashed as one fixed
 * mark, so a client that rebuilds the same form for a retry (browsers draw a new boundary each time)
 * repeats the fingerprint. Only what the handler read is hashed (the form ends at its closing boundary).
 */
export class StreamedFingerprint {
  private readonly digest = new crypto.DigestStream("SHA-256");
  private readonly writer = this.digest.getWriter();
  private readonly boundary: Uint8Array | null;
  // The tail of what came so far that may begin a boundary: held back until the next chunk.
  private carry = new Uint8Array(0);

  readonly stream = new TransformStream<Uint8Array, Uint8Array>({
    transform: async (chunk, controller) => {
      await this.write(chunk);
      controller.enqueue(chunk);
    },
  });

  constructor(
    private readonly method: string,
    private readonly target: string,
    contentType: string | null,
  ) {
    this.boundary = boundaryOf(contentType);
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.boundary) return this.writer.write(chunk);
    const b = this.boundary;
    const data = new Uint8Array(this.carry.length + chunk.length);
    data.set(this.carry);
    data.set(chunk, this.carry.length);
    let start = 0;
    for (let at = indexOf(data, b, 0); at !== -1; at = indexOf(data, b, start)) {
      await this.writer.write(data.subarray(start, at));
      await this.writer.write(BOUNDARY_MARK);
      start = at + b.length;
    }
    const keep = Math.min(b.length - 1, data.length - start);
    await this.writer.write(data.subarray(start, data.length - keep));
    this.carry = data.slice(data.length - keep);
  }

  /** The fingerprint of everything written so far. */
  async finish(): Promise<string> {
    await this.writer.write(this.carry);
    await this.writer.close();
    return fingerprint(this.method, this.target, await this.digest.digest);
  }

  /** Reads a body to its end through the hash (a retry compared with a kept answer: no handler runs). */
  async of(body: ReadableStream<Uint8Array> | null): Promise<string> {
    if (body) for await (const chunk of body) await this.write(chunk);
    return this.finish();
  }
}
