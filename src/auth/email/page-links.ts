// The one place e-mailed links are built (password reset, e-mail confirmation, team invitations).
// By default a link opens the React client that the service serves on its own origin at /app/, so a
// link works on whichever origin the request came to (wrangler dev on any port, workers.dev, a custom
// domain). A configured page (PASSWORD_RESET_URL, ...) takes precedence: a frontend hosted elsewhere.

/** Where the service serves the React client (its hash routes name the pages). */
export const CLIENT_PATH = "/app/";

/** The vars that may point an e-mailed link at another page; each must say where its token goes. */
export const LINK_SETTINGS = ["PASSWORD_RESET_URL", "EMAIL_CONFIRM_URL", "ORG_INVITE_URL"] as const;
type LinkSetting = (typeof LINK_SETTINGS)[number];

export interface PageLink {
  /** The origin of the request that asked for the e-mail: `new URL(c.req.url).origin`. */
  origin: string;
  /** The client's hash route: `reset-password`, `confirm-email`, ... */
  page: string;
  token: string;
  /** The configured page, `{token}` marking where the token goes; empty for the default. */
  configured?: string;
}

/** `<origin>/app/#/<page>?token=...`, or the configured page with `{token}` replaced. */
export function pageLink({ origin, page, token, configured }: PageLink): string {
  const encoded = encodeURIComponent(token);
  const template = configured?.trim();
  return template
    ? template.replace("{token}", encoded)
    : `${origin}${CLIENT_PATH}#/${page}?token=${encoded}`;
}

/**
 * Why the link settings are unusable, or undefined. A page without `{token}` would mail links that
 * cannot work, most often because `.dev.vars` (dotenv) cut an unquoted value at its `#`.
 */
export function linkSettingsProblem(env: Partial<Record<LinkSetting, string>>): string | undefined {
  for (const name of LINK_SETTINGS) {
    const value = env[name]?.trim();
    if (value && !value.includes("{token}")) {
      return (
        `Misconfigured: ${name} (${JSON.stringify(value)}) has no {token}, so its e-mailed links could not ` +
        `work. Put {token} where the link's token goes, or leave ${name} empty for the client on the ` +
        `request's origin (<origin>${CLIENT_PATH}#/...). In .dev.vars, quote a URL that has a #: ` +
        `${name}="https://app.example.com/#/page?token={token}" (unquoted, a # starts a comment).`
      );
    }
  }
  return undefined;
}
