// Where this page may load from and talk to. Read by src/config.ts (the API origin) and by
// vite.config.ts (the <meta> tag of index.html, and the headers of the dev and preview servers).

/**
 * The service's origin when it is another one (`VITE_API_ORIGIN`); undefined when the page is served
 * by the service itself (at /app/) or through `npm run client`'s proxy: the API is then the page's origin.
 */
export function apiOriginOf(configured: string | undefined): string | undefined {
  return configured ? new URL(configured).origin : undefined;
}

/**
 * The page's Content-Security-Policy (its <meta> tag) for a service at `apiOrigin` (undefined: its own
 * origin): scripts of its own, images from itself, `data:`, `blob:` and the service, requests (HTTP and
 * WebSocket) to itself and the service. So a chat answer cannot load anything from elsewhere, even past
 * the Markdown renderer. `'self'` covers the page's own ws:/wss: too (CSP Level 3). `dev` lets Vite's
 * inline React Refresh preamble run (the dev server only).
 */
export function contentSecurityPolicy(apiOrigin: string | undefined, { dev = false } = {}): string {
  const service = apiOrigin ? ` ${apiOrigin}` : "";
  const socket = apiOrigin ? ` ${apiOrigin.replace(/^http/, "ws")}` : "";
  return [
    "default-src 'self'",
    dev ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    // Radix's scroll lock and Vite's dev server insert <style> elements.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${service}`,
    `connect-src 'self'${service}${socket}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * The headers whatever serves the page must add: browsers ignore frame-ancestors in a <meta> tag. The
 * rest of the policy is in the page itself, built for its service, so it cannot disagree with it.
 */
export const FRAME_HEADERS = {
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
};
