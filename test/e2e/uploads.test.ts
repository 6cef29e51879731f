import { parse as parseDisposition } from "content-disposition";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedWorker } from "./shared-worker";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const NAMES = ["文件.pdf", "отчёт.docx", "😀.txt", "a;b.txt", 'say "hi".txt'];

const worker = sharedWorker();
let token: string;

beforeAll(async () => {
  const username = `up-${Date.now()}`;
  const res = await fetch(`${worker.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username,
      name: "Up",
      email: `${username}@example.com`,
      password: "correct horse battery staple",
    }),
  });
  token = ((await res.json()) as { data: { token: string } }).data.token;
});

async function upload(body: FormData) {
  const res = await fetch(`${worker.url}/api/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { key: string; size: number } }).data;
}

async function download(key: string) {
  const res = await fetch(`${worker.url}/api/download/${encodeURIComponent(key)}`);
  expect(res.status).toBe(200);
  return res;
}

describe("uploads against wrangler dev --local", () => {
  it("stores `file` then `directory`, small and larger than one part, in the directory", async () => {
    for (const size of [5, 9 * 1024 * 1024 + 3]) {
      const bytes = new Uint8Array(size).map((_, i) => i % 251);
      const form = new FormData();
      form.append("file", new Blob([bytes]), "late.bin");
      form.append("directory", "reports/2026");
      const { key } = await upload(form);
      expect(key).toMatch(new RegExp(`^reports/2026/${UUID}-late\\.bin$`));
      const res = await download(key);
      // Buffer.equals, not toEqual: a deep compare of 9 MiB idles the socket past wrangler's keep-alive.
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      const provisional = await fetch(`${worker.url}/api/download/${encodeURIComponent(key.slice(13))}`);
      expect(provisional.status).toBe(404);
    }
  });

  it("keeps Node FormData's Unicode filenames exactly and serves them back with the stored type", async () => {
    for (const name of NAMES) {
      const form = new FormData();
      form.append("directory", "docs");
      form.append("file", new Blob(["data"], { type: "text/plain" }), name);
      const res = await download((await upload(form)).key);
      expect(res.headers.get("Content-Type")).toBe("text/plain");
      expect(parseDisposition(res.headers.get("Content-Disposition")!).parameters.filename).toBe(name);
    }
  });
});
