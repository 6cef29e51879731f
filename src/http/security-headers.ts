import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./types";

// API answers are data, never documents: nothing may run, embed or frame them. CORP/COEP/COOP
// stay off so browsers on other origins (the React client, downloads) can still read them.
const headers = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] },
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
});

/** Security headers for /api/*, and a charset on JSON so clients never guess the encoding. */
export const apiSecurityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await headers(c, next);
  const type = c.res.headers.get("Content-Type");
  if (type === "application/json") c.res.headers.set("Content-Type", "application/json; charset=utf-8");
};
