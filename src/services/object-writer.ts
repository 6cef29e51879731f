import { StorageError } from "./storage-errors";

/** R2 multipart parts must be at least 5 MiB and, except the last, all the same size. */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export interface ObjectWriterOptions {
  key: string;
  contentType: string;
  customMetadata: Record<string, string>;
  partSize?: number;
}

/**
 * Writes a stream of chunks of unknown total length to R2 holding at most one part in memory:
 * a body shorter than one part becomes a single put(); a longer one an R2 multipart upload of
 * uniform parts. Nothing is visible under the key until finish(); abort() leaves no object.
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
    this.#buffer = new Uint8Array(this.#partSize);
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
      this.#buffer.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
    }
    this.#size += chunk.length;
  }

  async finish(): Promise<R2Object> {
    const body = this.#buffer.subarray(0, this.#filled);
    const upload = this.#upload;
    if (!upload) {
      return r2("put", () =>
        this.#bucket.put(this.key, body, {
          httpMetadata: { contentType: this.#options.contentType },
          customMetadata: this.#options.customMetadata,
        }),
      );
    }
    if (this.#filled > 0) await this.#flushPart();
    return r2("complete", () => upload.complete(this.#parts));
  }

  /** Drops an unfinished multipart upload so no parts linger in the bucket. */
  async abort(): Promise<void> {
    const upload = this.#upload;
    this.#upload = undefined;
    await upload?.abort();
  }

  async #flushPart(): Promise<void> {
    this.#upload ??= await r2("createMultipartUpload", () =>
      this.#bucket.createMultipartUpload(this.key, {
        httpMetadata: { contentType: this.#options.contentType },
        customMetadata: this.#options.customMetadata,
      }),
    );
    const upload = this.#upload;
    const part = await r2("uploadPart", () =>
      upload.uploadPart(this.#parts.length + 1, this.#buffer.subarray(0, this.#filled)),
    );
    this.#parts.push(part);
    this.#filled = 0;
  }
}

/** One R2 call; its failure is raised as a StorageError. */
async function r2<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new StorageError(operation, err);
  }
}
