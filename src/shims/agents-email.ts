// The Agents SDK's e-mail routing and sending (agents/dist/email.js and email-send.js): resolvers for
// `routeAgentEmail()`, the signed routing headers of `Agent.replyToEmail()` and `Agent.sendEmail()`.
// No agent here receives or sends e-mail (the service sends its own plain-text mail through the EMAIL
// binding, src/auth/email), so the build (scripts/build-worker.mjs) gives the SDK's modules this one,
// for both files. Each member throws if ever called; the names are the ones the SDK imports.
const NOT_BUNDLED =
  "The Agents SDK's e-mail routing is not bundled in this Worker: its agents do not receive or send e-mail";

function notBundled(): never {
  throw new Error(NOT_BUNDLED);
}

export const DEFAULT_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
export const createAddressBasedEmailResolver = notBundled;
export const createCatchAllEmailResolver = notBundled;
export const createHeaderBasedEmailResolver = notBundled;
export const createSecureReplyEmailResolver = notBundled;
export const isAutoReplyEmail = notBundled;
export const sendAgentEmail = async (): Promise<never> => notBundled();
export const signAgentHeaders = async (): Promise<never> => notBundled();
