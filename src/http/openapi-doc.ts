// Named imports: the bundler then keeps these four fields, not the whole package.json.
import { author, license, version } from "../../package.json";
import type { Context } from "hono";
import type { AppRouter } from "./create-app";
import { docsPage } from "./docs-page";
import { API_KEY_SCHEME } from "./route-access";
import { docsSecurityHeaders } from "./security-headers";
import type { AppEnv } from "./types";

export const OPENAPI_INFO = {
  title: "Workers API Service",
  version,
  description:
    "File storage on R2, JWT login, users and todos with attachments on D1, and Durable Object agents. " +
    "Every `/api/*` route needs `Authorization: Bearer <token>` unless marked public; operations that " +
    "list the `apiKey` scheme also take an API key with the scopes they name.",
  // The contact is whoever publishes this copy (package.json `author`).
  contact: { name: author },
  license: { name: license, identifier: license },
};

/** The document config shared by /openapi.json and `npm run openapi`. */
export const OPENAPI_CONFIG = {
  openapi: "3.1.0",
  info: OPENAPI_INFO,
  // Relative: the document describes whichever origin serves it (wrangler dev, workers.dev, a custom domain).
  servers: [{ url: "/" }],
  tags: [
    { name: "Health", description: "Liveness of the Worker and its D1 database" },
    { name: "AI", description: "Reachability of the Workers AI models" },
    {
      name: "Auth",
      description: "Register, log in, refresh, log out and reset a password; sign-ins answer a bearer JWT",
    },
    { name: "Sessions", description: "Where your account is signed in; end any of them" },
    { name: "API keys", description: "Long-lived, scoped keys for other Workers and scripts" },
    {
      name: "Passkeys",
      description: "Sign in without a password (WebAuthn): add, list, rename and delete your passkeys",
    },
    {
      name: "Connected apps",
      description: "AI clients you allowed through OAuth 2.1 to use /mcp as you; disconnect any of them",
    },
    { name: "Users", description: "Profiles: your own, other users' public fields, and admin management" },
    {
      name: "Admin",
      description: "Operations: where each workspace's data lives, and moving it between data databases",
    },
    {
      name: "Teams",
      description:
        "Organisations with four roles: create, members, e-mailed invitations, ownership transfer with consent",
    },
    { name: "Audit", description: "Append-only trails: a team's changes, and your account's own events" },
    {
      name: "Files",
      description:
        "Upload to R2, public download by key (private uploads: their owner only), your files, their deletion " +
        "and your storage quota",
    },
    {
      name: "Share links",
      description:
        "Signed, revocable download links to your files, with an expiry and an optional download limit",
    },
    {
      name: "Resumable uploads",
      description:
        "Files of any size in parts across requests (R2 multipart), resumable after a dropped connection",
    },
    { name: "Todos", description: "Your todos, with attachments that reference uploaded files by key" },
    { name: "Agents", description: "Short-lived connect tickets for the Durable Object agents' WebSockets" },
    {
      name: "Chats",
      description:
        "Your chats with the chat agent: an index to list, title, rename and delete them; each chat's id is its agent instance",
    },
    {
      name: "Notes",
      description: "Short notes to yourself: the resource the tutorial (docs/tutorial.md) builds",
    },
  ],
  security: [{ bearerAuth: [] }],
};

function llmsText(c: Context<AppEnv>) {
  return c.env.ASSETS.fetch(c.req.raw).then((asset) => {
    // Not built (a Worker run from src without `npm run build`): the envelope's 404.
    if (asset.status !== 200 && asset.status !== 304) return c.notFound();
    const res = new Response(asset.body, asset);
    res.headers.set("Cache-Control", "public, max-age=300");
    return res;
  });
}

export function configureOpenAPI(app: AppRouter) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "The token from POST /api/login, POST /api/register or POST /api/auth/refresh.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", API_KEY_SCHEME, {
    type: "http",
    scheme: "bearer",
    bearerFormat: "wsk_…",
    description:
      "An API key from POST /api/keys, as `Authorization: Bearer wsk_…`. Only operations that list " +
      "this scheme take one, and only with the scopes they name.",
  });
  app.doc31("/openapi.json", OPENAPI_CONFIG);
  app.get(
    "/docs",
    docsSecurityHeaders,
    // The bundle is a static asset of this Worker and fonts are the system's, so /docs needs no CDN.
    docsPage(OPENAPI_INFO.title),
  );
  app.get("/scalar/*", (c) => c.env.ASSETS.fetch(c.req.raw));
  app.get("/favicon.svg", (c) => c.env.ASSETS.fetch(c.req.raw));
  app.get("/docs.css", (c) => c.env.ASSETS.fetch(c.req.raw));
  // For AI readers: static assets the build writes (scripts/lib/llms-txt.mjs); the ETag is the asset's.
  app.get("/llms.txt", llmsText);
  app.get("/llms-full.txt", llmsText);
  app.get("/", (c) => c.redirect("/docs", 302));
}
