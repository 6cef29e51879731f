import { CLIENT_PATH } from "../auth/email/page-links";
import type { AppRouter } from "./create-app";
import { errorBody } from "./errors";
import { clientSecurityHeaders } from "./security-headers";

/**
 * The React client (examples/react-client), which `npm run dev` and `npm run deploy` build into the
 * static assets' app/ folder: served at /app/ on the service's own origin, so it calls the API with no
 * CORS. Its routes are in the hash (#/...), so the folder's files are all there is.
 */
export function mountClientApp(app: AppRouter) {
  app.get(CLIENT_PATH.slice(0, -1), (c) => c.redirect(CLIENT_PATH, 302));
  app.get(`${CLIENT_PATH}*`, clientSecurityHeaders, async (c) => {
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    if (asset.status === 404) {
      return c.json(errorBody("Not found (the React client is built by `npm run dev`)"), 404);
    }
    const res = new Response(asset.body, asset);
    // Vite names each built file after its content: a new build is a new name.
    if (c.req.path.startsWith(`${CLIENT_PATH}assets/`)) {
      res.headers.set("Cache-Control", "public, max-age=31536000, immutable");
    }
    return res;
  });
}
