import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ObjectWriter } from "../../src/services/object-writer";

const PART = 5 * 1024 * 1024;

/** The real bucket, recording the size of every uploaded part and every put. */
function recordingBucket() {
  const parts: number[] = [];
  const puts: string[] = [];
  const bucket = new Proxy(env.R2_BUCKET, {
    get(target, prop) {
      if (prop === "put") {
        return (key: string, value: Uint8Array, options: R2PutOptions) => {
          puts.push(key);
          return target.put(key, value, options);
        };
      }
      if (prop === "createMultipartUpload") {
        return async (key: string, options: R2MultipartOptions) => {
          const upload = await target.createMultipartUpload(key, options);
          return {
            key,
            uploadId: upload.uploadId,
            uploadPart: (n: number, value: Uint8Array) => {
              parts.push(value.byteLength);
              return upload.uploadPart(n, value);
            },
            complete: upload.complete.bind(upload),
            abort: upload.abort.bind(upload),
          };
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { bucket, parts, puts };
}

async function writeInChunks(writer: ObjectWriter, total: number, chunk: number) {
  for (let sent = 0; sent < total; sent += chunk) {
    await writer.write(new Uint8Array(Math.min(chunk, total - sent)).fill(sent % 251));
  }
}

const options = (key: string) => ({
  key,
  contentType: "application/x-test",
  customMetadata: { originalName: "n" },
  partSize: PART,
});

describe("ObjectWriter", () => {
  it("uploads uniform parts and a shorter last part, whatever the chunk sizes", async () => {
    const { bucket, parts, puts } = recordingBucket();
    const key = `w-${crypto.randomUUID()}`;
    const writer = new ObjectWriter(bucket, options(key));
    const total = 2 * PART + 12345;
    await writeInChunks(writer, total, 777_777);
    const object = await writer.finish();
    expect(parts).toEqual([PART, PART, 12345]);
    expect(puts).toEqual([]);
    expect(object.size).toBe(total);
    const head = await env.R2_BUCKET.head(key);
    expect(head?.httpMetadata?.contentType).toBe("application/x-test");
    expect(head?.customMetadata).toEqual({ originalName: "n" });
  });

  it("stores a body of at most one part with a single put", async () => {
    for (const total of [0, 1, PART]) {
      const { bucket, parts, puts } = recordingBucket();
      const key = `w-${crypto.randomUUID()}`;
      const writer = new ObjectWriter(bucket, options(key));
      await writeInChunks(writer, total, 1 << 20);
      const object = await writer.finish();
      expect(parts).toEqual([]);
      expect(puts).toEqual([key]);
      expect(object.size).toBe(total);
    }
  });

  it("leaves no object after abort()", async () => {
    const key = `w-${crypto.randomUUID()}`;
    const writer = new ObjectWriter(env.R2_BUCKET, options(key));
    await writeInChunks(writer, PART + 10, 1 << 20);
    await writer.abort();
    expect(await env.R2_BUCKET.head(key)).toBeNull();
  });
});
