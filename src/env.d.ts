// Optional settings from .dev.vars or `wrangler secret put`; absent unless set, so they are not `vars`.
interface OptionalSettings {
  /** OpenAI-compatible endpoint (Ollama, llama.cpp) used instead of the Workers AI binding. */
  AI_BASE_URL?: string;
  /** Model name at AI_BASE_URL. */
  AI_MODEL?: string;
  /** Bearer key for AI_BASE_URL, if it needs one. */
  AI_API_KEY?: string;
  /** Upper bound for one /ai/health inference, in milliseconds (default 10000). */
  AI_PROBE_TIMEOUT_MS?: string;
}
declare namespace Cloudflare {
  interface Env extends OptionalSettings {}
}
interface Env extends OptionalSettings {}
