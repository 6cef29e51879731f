export interface ConsentAnswer {
  username: string;
  password: string;
  /** Tick "Also create, change, complete and delete your todos" (todos:write); default true. */
  write?: boolean;
  /** Tick "Also read your files" (files:read); default true. */
  files?: boolean;
  decision?: "approve" | "deny";
  /** Sent with both requests (a client address of its own, say). */
  headers?: Record<string, string>;
}
export function consent(authorizationUrl: string | URL, answer: ConsentAnswer): Promise<URL>;
export function oauthTokens(
  baseUrl: string,
  user: { username: string; password: string },
  options?: { write?: boolean; files?: boolean; redirectUri?: string },
): Promise<{
  access_token: string;
  refresh_token?: string;
  scope: string;
  token_type: string;
  expires_in: number;
}>;
