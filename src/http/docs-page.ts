import { Scalar } from "@scalar/hono-api-reference";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./types";

/**
 * Scalar's colours darkened (or, in its dark code panels, lightened) to WCAG AA: 4.5:1 against its
 * backgrounds (#fff, #f6f6f6, #fbfbfb; #2a2a2a in the panels), where its defaults reach 3.2 to 4.3. Higher
 * specificity than its own `.light-mode` rules, so the order in which its bundle injects them does not matter.
 * The authentication card's header wraps instead of clipping "Required" under the scheme picker.
 */
const CONTRAST_CSS = `
body.light-mode {
  --scalar-color-2: #616161;
  --scalar-color-3: #676767;
  --scalar-color-accent: #0064a8;
  --scalar-color-blue: #0064a8;
  --scalar-color-green: #00704a;
  --scalar-color-orange: #a34100;
  --scalar-color-red: #bb0018;
  --scalar-color-yellow: #7d5800;
  --scalar-color-purple: #6639b7;
}
body.light-mode .dark-mode, body.dark-mode {
  --scalar-color-blue: #9aaaf7;
}
.rounded-t-xl:has([data-testid="auth-indicator"]) { flex-wrap: wrap; }
.rounded-t-xl:has([data-testid="auth-indicator"]) > button { flex: 1 0 auto; }
.rounded-t-xl:has([data-testid="auth-indicator"]) > div { padding: 0 0 0.25rem 0.5rem; }`;

// The document's language: Scalar's page shell has none, and screen readers need it to pick a voice.
const SHELL = "<html>";
const SHELL_WITH_LANG = '<html lang="en">';

/** /docs: Scalar's reference page, offline (`cdn` is this Worker's asset), in English and readable colours. */
export function docsPage(title: string): MiddlewareHandler<AppEnv> {
  const scalar = Scalar((c: Context<AppEnv>) => ({
    nonce: c.get("secureHeadersNonce"),
    url: "/openapi.json",
    pageTitle: title,
    cdn: "/scalar/standalone.js",
    withDefaultFonts: false,
    favicon: "/favicon.svg",
    customCss: CONTRAST_CSS,
    // Offline, buttons of Scalar's cloud (the toolbar's Share and Deploy, Ask AI, Generate MCP) lead nowhere.
    showDeveloperTools: "never",
    agent: { disabled: true },
    mcp: { disabled: true },
    telemetry: false,
  }));
  return async (c, next) => {
    const page = await scalar(c, next);
    if (!page) return;
    return c.html((await page.text()).replace(SHELL, SHELL_WITH_LANG));
  };
}
