import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

// Debian's Chromium (apt-get install chromium); Playwright never downloads a browser here.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function assertChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install chromium\` or set CHROMIUM_PATH`);
  }
}

/** Headless Chromium for the whole suite; the flags stop its own background traffic, which a closed network refuses. */
export function launchChromium() {
  return chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
