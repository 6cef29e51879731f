import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, loadEnv, type Plugin } from "vite";
import { apiOriginOf, contentSecurityPolicy, FRAME_HEADERS } from "./src/security-policy";

/** The policy as a <meta> tag, first in <head> so it covers everything after it (built and dev pages). */
const cspMeta = (content: string): Plugin => ({
  name: "content-security-policy",
  transformIndexHtml: () => [
    { tag: "meta", attrs: { "http-equiv": "Content-Security-Policy", content }, injectTo: "head-prepend" },
  ],
});

// The app lives at /app/, where the service serves its build. The dev server (`npm run client`) serves
// it there too and passes every other path (/api, /agents, /mcp, /oauth, /docs...) to the service
// (SERVICE_ORIGIN, default http://localhost:8787), keeping the Host header: to the browser and to the
// service the page and the API share one origin, so there is no CORS to set, and e-mailed links (built
// from the request's origin) come back to this dev server, whatever its --port. Whatever serves the
// build must send FRAME_HEADERS too, as the service and the dev and preview servers here do.
export default defineConfig(({ command, mode, isPreview }) => {
  const env = loadEnv(mode, ".", ["VITE_", "SERVICE_"]);
  const apiOrigin = apiOriginOf(env.VITE_API_ORIGIN);
  const dev = command === "serve" && !isPreview;
  const service = { target: env.SERVICE_ORIGIN || "http://localhost:8787", ws: true };
  return {
    base: "/app/",
    plugins: [react(), tailwindcss(), cspMeta(contentSecurityPolicy(apiOrigin, { dev }))],
    server: {
      port: 5173,
      strictPort: true,
      headers: FRAME_HEADERS,
      proxy: apiOrigin ? undefined : { "^/(?!app/)": service },
    },
    // The build alone (the proxy would otherwise apply here too).
    preview: { port: 4173, strictPort: true, headers: FRAME_HEADERS, proxy: {} },
  };
});
