// Upload and download through the service against raw R2 in the baseline Worker
// (isolate memory during uploads: upload-memory.mjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ASSETS_NOTE, signUp } from "../lib.mjs";

const MiB = 1024 * 1024;

/** Stores `bytes` in the service's local bucket with one put, as the baseline stores its copy. */
function putToServiceBucket(service, root, bytes) {
  const key = `bench-single-${crypto.randomUUID()}`;
  const file = join(mkdtempSync(join(tmpdir(), "bench-")), "object.bin");
  writeFileSync(file, bytes);
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "r2", "object", "put", `workers-api-service/${key}`, "--local"];
  args.push("--persist-to", service.persistTo, "--file", file, "-c", join(root, "wrangler.jsonc"));
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler r2 object put: ${result.stderr}`);
  return key;
}

export function payload(size) {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = i & 0xff;
  return bytes;
}

export async function uploadToService(
  url,
  token,
  bytes,
  name = "bench.bin",
  { directory, directoryLast } = {},
) {
  const form = new FormData();
  if (directory && !directoryLast) form.append("directory", directory);
  form.append("file", new Blob([bytes], { type: "application/octet-stream" }), name);
  if (directory && directoryLast) form.append("directory", directory);
  const res = await fetch(`${url}/api/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return (await res.json()).data.key;
}

async function putToBaseline(url, bytes, route = "object") {
  const key = `bench-${crypto.randomUUID()}`;
  const res = await fetch(`${url}/${route}/${key}`, { method: "PUT", body: bytes });
  if (!res.ok) throw new Error(`baseline put: ${res.status}`);
  return key;
}

/** Median MB/s of `times` sequential calls of `fn` moving `size` bytes each. */
async function throughput(times, size, fn) {
  const rates = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await fn();
    rates.push(size / MiB / ((performance.now() - started) / 1000));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)];
}

export async function run({ service, baseline, baselineAssets, compare, pairedRatio, ratio, round, ROOT }) {
  const { token } = await signUp(service.url);
  const rows = [];
  const notes = [];

  for (const size of [1 * MiB, 20 * MiB]) {
    const bytes = payload(size);
    const times = size > MiB ? 5 : 15;
    const serviceUp = await throughput(times, size, () => uploadToService(service.url, token, bytes));
    const baselineUp = await throughput(times, size, () => putToBaseline(baseline.url, bytes));
    rows.push({
      operation: `upload ${size / MiB} MiB`,
      "service MB/s": round(serviceUp),
      "baseline MB/s": round(baselineUp),
      ratio: ratio(serviceUp, baselineUp),
      target: "",
    });

    const uploaded = await uploadToService(service.url, token, bytes);
    const single = size > MiB ? putToServiceBucket(service, ROOT, bytes) : uploaded;
    const baseKey = await putToBaseline(baseline.url, bytes);
    const download = (key) => ({ url: `${service.url}/api/download/${encodeURIComponent(key)}` });
    const targets = { baseline: { url: `${baseline.url}/object/${baseKey}` }, service: download(single) };
    if (size === MiB) {
      const assetsKey = await putToBaseline(baselineAssets.url, bytes);
      targets.baselineAssets = { url: `${baselineAssets.url}/object/${assetsKey}` };
    }
    if (single !== uploaded) {
      targets.multipart = download(uploaded);
      const baseMultipart = await putToBaseline(baseline.url, bytes, "object-multipart");
      targets.baselineMultipart = { url: `${baseline.url}/object/${baseMultipart}` };
    }
    const r = await compare(targets, {
      rounds: size > MiB ? 3 : 6,
      duration: size > MiB ? 8 : 2,
      connections: size > MiB ? 2 : 10,
    });
    const mbps = (name) => (r[name].rps * size) / MiB;
    const row = (name, base, label, target = "") => ({
      operation: label,
      "service MB/s": round(mbps(name)),
      "baseline MB/s": round(mbps(base)),
      ratio: pairedRatio(r[name], r[base]),
      target,
      errors: r[name].errors + r[base].errors,
    });
    const what = `download ${size / MiB} MiB`;
    rows.push(row("service", "baseline", what, ">= 0.9"));
    if (targets.baselineAssets) {
      rows.push(
        row("service", "baselineAssets", `${what} against the baseline with static assets, as the service`),
      );
    }
    if (targets.multipart) {
      const label = `${what}, both stored as R2 multipart objects (8 MiB parts)`;
      rows.push(row("multipart", "baselineMultipart", label, ">= 0.9"));
    }
  }

  notes.push(
    "Uploads: median of sequential multipart/form-data POSTs (15 x 1 MiB, 5 x 20 MiB); baseline = raw R2 put of the body.",
    "Downloads: autocannon, rounds in alternating order (6 of 2 s and 10 connections for 1 MiB, 3 of 8 s and 2 connections for 20 MiB); MB/s = req/s x size, the median over rounds; ratios are the median of the same-round ratios; baseline = raw R2 get streamed.",
    "Like for like, the 20 MiB download reads an object stored with one put (wrangler r2 object put --local), as the baseline's is. " +
      "The upload stores 20 MiB as an R2 multipart object, which local R2 (miniflare) reads several times slower than a single-put object (production R2 not measured here); the last download row compares two multipart objects.",
  );
  notes.push(ASSETS_NOTE);
  return { title: "Files: upload and download vs raw R2", rows, notes };
}
