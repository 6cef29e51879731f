// Runs in both: the Worker strips and states the caller; the chat Durable Object reads CALLER_HEADER.
import type { CredentialIdentity } from "../auth/credential-liveness";
import { CREDENTIAL_HEADER } from "./socket-credential";

/** Set by this Worker on every request it forwards to an agent: who calls (`user:<id>` or `ip:<address>`). */
export const CALLER_HEADER = "x-agent-caller";

// Headers the Agents SDK (node_modules/agents 0.32) trusts as its own when they reach an agent: the
// lifecycle props it decodes (`x-agents-lifecycle-props`; a bad value was a 500 with a stack), the
// sub-agent outer URL (`x-cf-agents-subagent-url`), and those of features this service does not use
// (container harness token, channels identity, e-mail routing signature). None may come from outside.
const INTERNAL_HEADER_PREFIXES = ["x-agents-", "x-cf-agents-", "x-partykit-"];
const INTERNAL_HEADERS = new Set([
  "x-cf-harness-token",
  "x-channels-identity",
  "x-agent-id",
  "x-agent-name",
  "x-agent-sig",
  "x-agent-sig-ts",
  CALLER_HEADER,
  CREDENTIAL_HEADER,
]);
// Credentials the gate has already read: they never reach an agent (or anything it logs).
const CREDENTIAL_PARAMS = ["token", "ticket"];

export function isInternalHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return INTERNAL_HEADERS.has(lower) || INTERNAL_HEADER_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The request as an agent sees it: no credentials, no SDK-internal headers, and the caller as we state
 * it, with the identity of the credential it authenticated with, if any (src/agents/socket-guard.ts).
 */
export function forwardedRequest(request: Request, caller: string, credential?: CredentialIdentity): Request {
  const url = new URL(request.url);
  const hasCredentialParam = CREDENTIAL_PARAMS.some((param) => url.searchParams.has(param));
  for (const param of CREDENTIAL_PARAMS) url.searchParams.delete(param);
  const forwarded = new Request(hasCredentialParam ? url : request.url, request);
  const dropped = Array.from(forwarded.headers.keys()).filter(
    (name) => name === "authorization" || isInternalHeader(name),
  );
  for (const name of dropped) forwarded.headers.delete(name);
  forwarded.headers.set(CALLER_HEADER, caller);
  if (credential) forwarded.headers.set(CREDENTIAL_HEADER, JSON.stringify(credential));
  return forwarded;
}
