// The Agents SDK builds MIME messages with mimetext only in Agent.replyToEmail(); no agent here
// answers e-mail (the service sends its own plain-text mail through the EMAIL binding), so the build
// (scripts/build-worker.mjs) swaps the package, and the core-js and mime-types it pulls in, for this
// stand-in. The name is the one the SDK imports.

export function createMimeMessage(): never {
  throw new Error("mimetext is not bundled in this Worker: its agents do not reply to e-mail");
}
