import type { ApiKeyScope } from "../../db/credentials-schema";

// OAuth 2.1 for AI clients: this Worker is both the authorization server and its one protected
// resource, /mcp. Both are named by the origin a request came to (a workers.dev name, a custom domain,
// wrangler dev's loopback address), so no URL is configured and a token works only where it was issued.

/** The protected resource's path. */
export const PROTECTED_RESOURCE_PATH = "/mcp";
/**
 * What a grant may hold; a grant always holds `todos:read`, the scope any use of /mcp needs. `files:read`
 * opens the user's files as resources.
 */
export const OAUTH_SCOPES = [
  "todos:read",
  "todos:write",
  "files:read",
] as const satisfies readonly ApiKeyScope[];
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
export const REQUIRED_SCOPES: readonly OAuthScope[] = ["todos:read"];

const PROTECTED_RESOURCE_METADATA = "/.well-known/oauth-protected-resource";
export const RESOURCE_METADATA_PATH = `${PROTECTED_RESOURCE_METADATA}${PROTECTED_RESOURCE_PATH}`;
// The authorization server's endpoints: RFC 8414 metadata, the consent page, token (and revocation),
// dynamic client registration (RFC 7591).
export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * The issuer for a request to `url`: its origin, or null where OAuth 2.1 cannot run, that is plain
 * http off the loopback host (the rule the OAuth library also enforces). Workers are served over https.
 */
export function oauthIssuer(url: string): string | null {
  const { protocol, hostname, origin } = new URL(url);
  if (protocol === "https:" || (protocol === "http:" && LOOPBACK.test(hostname))) return origin;
  return null;
}

export const resourceOf = (issuer: string) => `${issuer}${PROTECTED_RESOURCE_PATH}`;
export const resourceMetadataUrl = (issuer: string) => `${issuer}${RESOURCE_METADATA_PATH}`;

/** RFC 9728 metadata of /mcp: where to get a token, and the scope any use needs. */
export function protectedResourceMetadata(issuer: string) {
  return {
    resource: resourceOf(issuer),
    authorization_servers: [issuer],
    scopes_supported: [...REQUIRED_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Todos (MCP)",
  };
}

/**
 * The `WWW-Authenticate` parameters that lead an MCP client to the authorization server (RFC 9728 §5.1)
 * and name the scopes to ask for: the baseline on a 401, all an operation needs on a 403. Empty where
 * OAuth cannot run.
 */
export function oauthChallenge(issuer: string | null, scopes: readonly string[] = REQUIRED_SCOPES): string {
  return issuer ? `, resource_metadata="${resourceMetadataUrl(issuer)}", scope="${scopes.join(" ")}"` : "";
}
