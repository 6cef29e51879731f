import { existsSync } from "node:fs";

// Debian's Chromium (apt-get install chromium); Playwright never downloads a browser here.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function assertChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install chromium\` or set CHROMIUM_PATH`);
  }
}
