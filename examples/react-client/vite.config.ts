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

// The service's CORS_ORIGINS lists this dev server's origin (http://localhost:5173). Whatever serves
// the build must send FRAME_HEADERS too, as the dev and preview servers here do.
export default defineConfig(({ command, mode, isPreview }) => {
  const apiOrigin = apiOriginOf(loadEnv(mode, ".", "VITE_").VITE_API_ORIGIN);
  const dev = command === "serve" && !isPreview;
  return {
    plugins: [react(), tailwindcss(), cspMeta(contentSecurityPolicy(apiOrigin, { dev }))],
    server: { port: 5173, strictPort: true, headers: FRAME_HEADERS },
    preview: { port: 4173, strictPort: true, headers: FRAME_HEADERS },
  };
});
