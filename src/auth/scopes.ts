import type { ApiKeyScope } from "../db/credentials-schema";
import { ApiError } from "../http/errors";
import type { Credential, McpCredential } from "./credentials";

/**
 * What a credential may do: a sign-in (a JWT) everything its user may; an API key or an OAuth grant only
 * what its scopes name, and nothing that manages the account (users, sessions, keys), which needs a sign-in.
 */
export function missingScope(credential: McpCredential, needed: readonly ApiKeyScope[]): ApiKeyScope | null {
  if (credential.kind !== "api_key" && credential.kind !== "oauth") return null;
  return needed.find((scope) => !credential.scopes.includes(scope)) ?? null;
}

/** 403 naming the first scope the key lacks (with `headers`, such as a route's CORS headers). */
export function requireScopes(
  credential: Credential,
  needed: readonly ApiKeyScope[],
  headers?: Record<string, string>,
): void {
  const missing = missingScope(credential, needed);
  if (missing) throw new ApiError(403, `This API key lacks the scope ${missing}`, undefined, headers);
}

/** 403 for an API key where only a sign-in will do. */
export function requireSignIn(credential: Credential): void {
  if (credential.kind === "api_key") {
    throw new ApiError(403, "This route needs a signed-in session; API keys cannot use it");
  }
}
