// Creates .dev.vars for local development, once: a random 64-byte JWT_SECRET. (The React client needs
// no CORS_ORIGINS: the service serves it at /app/, and `npm run client` proxies to the service.)
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const file = join(import.meta.dirname, "..", ".dev.vars");
const current = existsSync(file) ? readFileSync(file, "utf8") : "";
if (!/^JWT_SECRET=.+/m.test(current)) {
  const line = `JWT_SECRET=${randomBytes(64).toString("base64url")}\n`;
  writeFileSync(file, current && !current.endsWith("\n") ? `${current}\n${line}` : current + line, {
    mode: 0o600,
  });
  console.log("Added JWT_SECRET to .dev.vars (git-ignored).");
}
