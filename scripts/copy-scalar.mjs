// Copies the Scalar browser bundle into the Worker's static assets so /docs needs no CDN.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const source = join(root, "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
const target = join(root, "public", "scalar");
mkdirSync(target, { recursive: true });
copyFileSync(source, join(target, "standalone.js"));
