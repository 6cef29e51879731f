// The user Worker's isolate memory (over the DevTools inspector) during 90 MiB streaming uploads in
// either field order, and while 20 uploads are held open after a few bytes, in a fresh `wrangler dev`.
import { openIsolateMeter, signUp } from "../lib.mjs";
import { payload, uploadToService } from "./files.mjs";

const MiB = 1024 * 1024;
const MiBs = (bytes) => Number((bytes / MiB).toFixed(1));

/** An upload that sends its part headers and `sent` bytes of file, then waits until aborted. */
function heldUpload(url, token, sent) {
  const boundary = `----bench${crypto.randomUUID().replaceAll("-", "")}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.bin"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n";
  const controller = new AbortController();
  const body = new ReadableStream({
    start(stream) {
      stream.enqueue(new TextEncoder().encode(head));
      stream.enqueue(new Uint8Array(sent).fill(1));
    },
  });
  const response = fetch(`${url}/api/upload`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: "half",
    signal: controller.signal,
  }).catch(() => undefined);
  return { abort: () => controller.abort(), response };
}
export async function run({ round, startWranglerDev }) {
  const rows = [];
  // A fresh Worker, so the isolate holds nothing from the runs above.
  const fresh = await startWranglerDev();
  const meter = await openIsolateMeter(fresh.inspectorPort);
  try {
    const { token: freshToken } = await signUp(fresh.url);
    const size = 90 * MiB;
    for (const directoryLast of [false, true]) {
      const before = await meter.bytes();
      const started = performance.now();
      const { result: key, peak } = await meter.peakDuring(() =>
        uploadToService(fresh.url, freshToken, payload(size), "ninety.bin", {
          directory: "bench",
          directoryLast,
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const head = await fetch(`${fresh.url}/api/download/${encodeURIComponent(key)}`, { method: "HEAD" });
      rows.push({
        operation: `upload 90 MiB, ${directoryLast ? "file then directory" : "directory then file"} (isolate)`,
        "service MB/s": round(size / MiB / seconds),
        "isolate before MiB": MiBs(before),
        "isolate peak MiB": MiBs(peak),
        "rise MiB": MiBs(peak - before),
        target: "rise <= 48 MiB",
        stored:
          head.headers.get("Content-Length") === String(size) && key.startsWith("bench/") ? "yes" : "NO",
      });
    }

    const HELD = 20;
    const before = await meter.bytes();
    const held = [];
    const { peak: during } = await meter.peakDuring(async () => {
      for (let i = 0; i < HELD; i++) held.push(heldUpload(fresh.url, freshToken, 5));
      await new Promise((r) => setTimeout(r, 3000));
    });
    for (const upload of held) upload.abort();
    await Promise.all(held.map((upload) => upload.response));
    rows.push({
      operation: `${HELD} uploads held open after 5 bytes of file (isolate)`,
      "isolate before MiB": MiBs(before),
      "isolate peak MiB": MiBs(during),
      "rise MiB": MiBs(during - before),
      target: `rise <= ${HELD} x 128 KiB = 2.5 MiB`,
    });
  } finally {
    meter.close();
    await fresh.stop();
  }

  return {
    title: "Uploads: user Worker isolate memory (wrangler dev --local)",
    rows,
    notes: [
      "The user Worker's V8 isolate in a dedicated wrangler dev, read over its DevTools inspector " +
        "(Runtime.getHeapUsage usedSize + backingStorageSize; process RSS would count wrangler's proxy and the R2/D1 simulators). " +
        "'before' just before, 'peak' the highest sample (every 20 ms) during the upload, or during the 3 s the held uploads stay open.",
      "'file then directory' also moves the 90 MiB object to its final key (a streamed R2 get into a put), inside the measured upload.",
    ],
  };
}
