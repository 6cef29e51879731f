import type { ApiKeyScope } from "../db/credentials-schema";
import type { McpCredential } from "./credentials";

/**
 * What a credential may do: a sign-in (a JWT) everything its user may; an API key or an OAuth grant only
 * what its scopes name, and nothing that manages the account (users, sessions, keys), which needs a sign-in.
 */
export function missingScope(credential: McpCredential, needed: readonly ApiKeyScope[]): ApiKeyScope | null {
  if (credential.kind !== "api_key" && credential.kind !== "oauth") return null;
  return needed.find((scope) => !credential.scopes.includes(scope)) ?? null;
}
