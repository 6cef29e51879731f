import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import app from "../../src/app";
import { withFaults } from "./faults";
import { BASE } from "./http";
import { freshIp } from "./client-ip";

/** Every object in the test bucket (storage is per test file, so compare counts before and after). */
export async function countObjects(bucket: R2Bucket = env.R2_BUCKET): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    count += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return count;
}

/** A request through the app with some bindings replaced (fault injection, smaller limits). */
export async function fetchWithEnv(
  path: string,
  init: RequestInit & { token?: string },
  overrides: Partial<Env>,
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", freshIp());
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(new URL(path, BASE), { ...init, headers }),
    { ...env, ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** POST `body` as JSON through app.fetch with some bindings replaced; the answer read as text. */
export async function postJsonWithEnv(path: string, body: unknown, overrides: Partial<Env>) {
  const res = await fetchWithEnv(
    path,
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
    overrides,
  );
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** `count` pseudo-random bytes, the same for the same seed. */
export function bytes(count: number, seed = 1): Uint8Array {
  const out = new Uint8Array(count);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export async function sha256(data: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A stream of `total` bytes in `chunk`-sized pieces, generated as it is read (no Content-Length). */
export function generatedStream(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      const next = parts[i++];
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** What a recording bucket saw: the keys it put, the multipart uploads it opened and aborted, their part sizes. */
export interface BucketRecord {
  puts: string[];
  opened: string[];
  aborted: string[];
  partSizes: number[];
}

/** The real test bucket, recording its writes (see BucketRecord); everything still reaches R2. */
export function recordingBucket(bucket: R2Bucket = env.R2_BUCKET): { bucket: R2Bucket } & BucketRecord {
  const record: BucketRecord = { puts: [], opened: [], aborted: [], partSizes: [] };
  const recording = withFaults(bucket, {
    put: (...args: Parameters<R2Bucket["put"]>) => {
      record.puts.push(args[0]);
      return bucket.put(...args);
    },
    createMultipartUpload: async (key: string, options?: R2MultipartOptions) => {
      record.opened.push(key);
      const upload = await bucket.createMultipartUpload(key, options);
      return withFaults(upload, {
        uploadPart: (...args: Parameters<R2MultipartUpload["uploadPart"]>) => {
          record.partSizes.push((args[1] as ArrayBufferView).byteLength);
          return upload.uploadPart(...args);
        },
        abort: async () => {
          record.aborted.push(key);
          await upload.abort();
        },
      });
    },
  });
  return { bucket: recording, ...record };
}
