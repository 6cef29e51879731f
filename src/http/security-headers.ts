import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./types";

// CORP/COEP/COOP stay off so browsers on other origins (the React client, downloads) can still read
// what this origin serves.
const common = {
  xFrameOptions: "DENY",
  strictTransportSecurity: "max-age=31536000; includeSubDomains",
  referrerPolicy: "no-referrer",
  crossOriginResourcePolicy: false,
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

// API answers are data, never documents: nothing may run, embed or frame them.
const headers = secureHeaders({
  ...common,
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] },
});

/** Security headers for /api/*, and a charset on JSON so clients never guess the encoding. */
export const apiSecurityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await headers(c, next);
  const type = c.res.headers.get("Content-Type");
  if (type === "application/json") c.res.headers.set("Content-Type", "application/json; charset=utf-8");
};

/**
 * The /docs page (Scalar): scripts from this origin only (its bundle under /scalar/, its inline start-up
 * by nonce: `c.get("secureHeadersNonce")`), requests and images to this origin only (the API it
 * documents), never framed. Styles may be inline: Scalar's bundle injects its stylesheet at run time.
 */
export const docsSecurityHeaders: MiddlewareHandler<AppEnv> = secureHeaders({
  ...common,
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    fontSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

/**
 * The React client at /app/: its page carries its own policy (a <meta> tag built with it); browsers
 * ignore frame-ancestors there, so the header adds it.
 */
export const clientSecurityHeaders: MiddlewareHandler<AppEnv> = secureHeaders({
  ...common,
  contentSecurityPolicy: { frameAncestors: ["'none'"] },
});
