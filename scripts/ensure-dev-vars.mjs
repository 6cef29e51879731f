// Creates .dev.vars for local development, once: a random 64-byte JWT_SECRET, and CORS for the
// React example client (production allows no cross-origin callers until CORS_ORIGINS is set).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const file = join(import.meta.dirname, "..", ".dev.vars");
const current = existsSync(file) ? readFileSync(file, "utf8") : "";
const missing = [
  /^JWT_SECRET=.+/m.test(current) ? "" : `JWT_SECRET=${randomBytes(64).toString("base64url")}\n`,
  /^CORS_ORIGINS=/m.test(current) ? "" : "CORS_ORIGINS=http://localhost:5173\n",
].join("");
if (missing) {
  writeFileSync(file, current && !current.endsWith("\n") ? `${current}\n${missing}` : current + missing, {
    mode: 0o600,
  });
  console.log(`Added ${missing.match(/^\w+/gm).join(" and ")} to .dev.vars (git-ignored).`);
}
