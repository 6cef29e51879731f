import type { ApiKeyScope } from "../db/credentials-schema";

/** The signed-in user, set by requireAuth on protected routes. */
export interface AuthUser {
  id: number;
  username: string;
  role: "user" | "admin";
  /** Tokens without a session that carry another version were revoked (src/auth/authenticate.ts). */
  tokenVersion: number;
  /** OAuth grants consented under another version ended with an account recovery (src/auth/authenticate.ts). */
  grantVersion: number;
}

/**
 * What a request authenticated with: a sign-in session's JWT, a JWT without a session (issued before
 * sessions existed), or an API key with its scopes. Only API keys are limited to scopes.
 */
export type Credential =
  | { kind: "session"; sessionId: string }
  | { kind: "token" }
  | { kind: "api_key"; keyId: number; scopes: ApiKeyScope[] };

/** An access token from an OAuth grant (src/auth/oauth/oauth-server.ts): accepted on /mcp only, within its scopes. */
export interface OAuthCredential {
  kind: "oauth";
  grantId: string;
  clientId: string;
  scopes: ApiKeyScope[];
}

/** What /mcp accepts: everything /api does, and OAuth access tokens issued for /mcp. */
export type McpCredential = Credential | OAuthCredential;
