// Optional secret from `wrangler secret put`; absent unless set, so it is not in `vars`.
interface OptionalSettings {
  /** Bearer key for AI_BASE_URL, if it needs one. */
  AI_API_KEY?: string;
}
declare namespace Cloudflare {
  interface Env extends OptionalSettings {}
}
interface Env extends OptionalSettings {}
