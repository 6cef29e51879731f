import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ObjectWriter } from "../../src/files/object-writer";
import { recordingBucket } from "../helpers/storage";

const PART = 5 * 1024 * 1024;

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
    const { bucket, partSizes: parts, puts } = recordingBucket();
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
      const { bucket, partSizes: parts, puts } = recordingBucket();
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
