import { Scalar } from "@scalar/hono-api-reference";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./types";

// Scalar's page shell has no language (screen readers need it to pick a voice) and no way to link a
// stylesheet: both are added to it. public/docs.css brings its colours to WCAG AA contrast.
const SHELL = "<html>";
const SHELL_WITH_LANG = '<html lang="en">';
const HEAD_END = "</head>";
const STYLESHEET = '<link rel="stylesheet" href="/docs.css" />\n  </head>';

/** /docs: Scalar's reference page, offline (`cdn` is this Worker's asset), in English and readable colours. */
export function docsPage(title: string): MiddlewareHandler<AppEnv> {
  const scalar = Scalar((c: Context<AppEnv>) => ({
    nonce: c.get("secureHeadersNonce"),
    url: "/openapi.json",
    pageTitle: title,
    cdn: "/scalar/standalone.js",
    withDefaultFonts: false,
    favicon: "/favicon.svg",
    // Offline, buttons of Scalar's cloud (the toolbar's Share and Deploy, Ask AI, Generate MCP) lead nowhere.
    showDeveloperTools: "never",
    agent: { disabled: true },
    mcp: { disabled: true },
    telemetry: false,
  }));
  return async (c, next) => {
    const page = await scalar(c, next);
    if (!page) return;
    const html = await page.text();
    return c.html(html.replace(SHELL, SHELL_WITH_LANG).replace(HEAD_END, STYLESHEET));
  };
}
