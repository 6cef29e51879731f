// Writes the service's OpenAPI 3.1 document to openapi.json, for client generation.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startWranglerDev } from "./lib/wrangler-dev.mjs";

const worker = await startWranglerDev({ migrate: false });
try {
  const res = await fetch(`${worker.url}/openapi.json`);
  if (!res.ok) throw new Error(`/openapi.json answered ${res.status}`);
  const document = await res.json();
  writeFileSync(join(ROOT, "openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
  console.log(`openapi.json: ${Object.keys(document.paths).length} paths`);
} finally {
  await worker.stop();
}
