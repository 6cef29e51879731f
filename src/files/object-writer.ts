import { moveObject } from "./file-move";
import { callStorage } from "./storage-errors";

/** R2 multipart parts must be at least 5 MiB and, except the last, all the same size. */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** The first buffer; it doubles up to one part, so an upload holds memory in proportion to what it sent. */
const INITIAL_BUFFER_BYTES = 64 * 1024;

export interface FinishOptions {
  customMetadata?: Record<string, string>;
  beforeVisible?: (key: string, size: number) => Promise<void>;
}

export interface ObjectWriterOptions {
  key: string;
  contentType: string;
  customMetadata: Record<string, string>;
  partSize?: number;
}

/**
 * Writes a stream of chunks of unknown total length to R2 holding at most one part in memory:
 * a body shorter than one part becomes a single put(); a longer one an R2 multipart upload of
 * uniform parts under `key`. finish() may name another key, decided only once the body has
 * ended: a short body is put there directly, a multipart one is moved there after completing.
 * Nothing is visible under the final key until finish(); abort() leaves no object.
 */
export class ObjectWriter {
  readonly key: string;
  #bucket: R2Bucket;
  #options: ObjectWriterOptions;
  #partSize: number;
  #buffer: Uint8Array;
  #filled = 0;
  #size = 0;
  #upload: R2MultipartUpload | undefined;
  #parts: R2UploadedPart[] = [];

  constructor(bucket: R2Bucket, options: ObjectWriterOptions) {
    this.#bucket = bucket;
    this.#options = options;
    this.key = options.key;
    this.#partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.#buffer = new Uint8Array(0);
  }

  get size(): number {
    return this.#size;
  }

  async write(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      // Flush a full part only when more bytes follow, so a body of exactly one part is one put().
      if (this.#filled === this.#partSize) await this.#flushPart();
      const take = Math.min(chunk.length - offset, this.#partSize - this.#filled);
      this.#reserve(this.#filled + take);
      this.#buffer.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
    }
    this.#size += chunk.length;
  }

  /**
   * Makes the object visible under `key` with `customMetadata`. A multipart upload completed under
   * another key or with other metadata is moved, so those need a new key. `beforeVisible` runs
   * with the final key and size before anything is visible; if it throws, nothing is.
   */
  async finish(key = this.key, options: FinishOptions = {}): Promise<R2Object> {
    const customMetadata = options.customMetadata ?? this.#options.customMetadata;
    const upload = this.#upload;
    if (upload && this.#filled > 0) await this.#flushPart();
    await options.beforeVisible?.(key, this.#size);
    if (!upload) {
      const body = this.#buffer.subarray(0, this.#filled);
      return callStorage("put", () =>
        this.#bucket.put(key, body, {
          httpMetadata: { contentType: this.#options.contentType },
          customMetadata,
        }),
      );
    }
    this.#buffer = new Uint8Array(0);
    const object = await callStorage("complete", () => upload.complete(this.#parts));
    this.#upload = undefined;
    if (key === this.key) return object;
    return callStorage("move", () => moveObject(this.#bucket, object, key, customMetadata));
  }

  /** Drops an unfinished multipart upload so no parts linger in the bucket. */
  async abort(): Promise<void> {
    const upload = this.#upload;
    this.#upload = undefined;
    await upload?.abort();
  }

  /** Grows the buffer by doubling, never past one part. */
  #reserve(bytes: number): void {
    if (bytes <= this.#buffer.length) return;
    let length = Math.max(this.#buffer.length, INITIAL_BUFFER_BYTES);
    while (length < bytes) length *= 2;
    const grown = new Uint8Array(Math.min(length, this.#partSize));
    grown.set(this.#buffer.subarray(0, this.#filled));
    this.#buffer = grown;
  }

  async #flushPart(): Promise<void> {
    this.#upload ??= await callStorage("createMultipartUpload", () =>
      this.#bucket.createMultipartUpload(this.key, {
        httpMetadata: { contentType: this.#options.contentType },
        customMetadata: this.#options.customMetadata,
      }),
    );
    const upload = this.#upload;
    const part = await callStorage("uploadPart", () =>
      upload.uploadPart(this.#parts.length + 1, this.#buffer.subarray(0, this.#filled)),
    );
    this.#parts.push(part);
    this.#filled = 0;
  }
}
