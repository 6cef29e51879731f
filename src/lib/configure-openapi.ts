import { Scalar } from "@scalar/hono-api-reference";
import pkg from "../../package.json";
import type { AppRouter } from "./create-app";

export const OPENAPI_INFO = {
  title: "Workers API Service",
  version: pkg.version,
  description:
    "File storage on R2, JWT login, users and todos with attachments on D1, and Durable Object agents. " +
    "Every `/api/*` route needs `Authorization: Bearer <token>` unless marked public.",
};

/** The document config shared by /openapi.json and `npm run openapi`. */
export const OPENAPI_CONFIG = {
  openapi: "3.1.0",
  info: OPENAPI_INFO,
  security: [{ bearerAuth: [] }],
};

export function configureOpenAPI(app: AppRouter) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "The token from POST /api/login or POST /api/register.",
  });
  app.doc31("/openapi.json", OPENAPI_CONFIG);
  app.get(
    "/docs",
    // The bundle is a static asset of this Worker, so /docs needs no CDN.
    Scalar({ url: "/openapi.json", pageTitle: OPENAPI_INFO.title, cdn: "/scalar/standalone.js" }),
  );
  app.get("/scalar/*", (c) => c.env.ASSETS.fetch(c.req.raw));
  app.get("/", (c) => c.redirect("/docs", 302));
}
