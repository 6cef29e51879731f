/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the Workers API service runs, e.g. https://api.example.com (no trailing slash needed). */
  readonly VITE_API_ORIGIN?: string;
  /** "true" when the service runs with AGENTS_REQUIRE_AUTH=true: agent connections then carry the token. */
  readonly VITE_AGENTS_AUTH?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
