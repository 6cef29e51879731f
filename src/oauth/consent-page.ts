// The consent page: plain HTML, no script. Every value that reaches it may come from an attacker (a
// dynamically registered client names itself; a username is typed in), so every one is escaped.

export interface ConsentView {
  /** The client's name, as it registered itself (unverified). */
  clientName: string;
  /** For a client named by the URL of its metadata document: that URL's host, which it controls. */
  clientDomain?: string;
  /** Where the tokens go: the redirect URI's host, which the page must show. */
  redirectHost: string;
  /** The redirect goes to an app on this computer: any local program could be listening. */
  redirectIsLoopback: boolean;
  /** The form's one-time handle (bound to this browser by a cookie). */
  handle: string;
  /** The write box starts ticked (the client asked for `todos:write`). */
  write: boolean;
  /** The files box starts ticked (the client asked for `files:read`). */
  files: boolean;
  username?: string;
  error?: string;
}

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.3rem}label{display:block;margin:.6rem 0}input[type=text],input[type=password]{width:100%;padding:.4rem;box-sizing:border-box}
.warn{background:#fff8c5;padding:.5rem}.error{color:#b42318;font-weight:600}button{padding:.5rem 1rem;margin-right:.5rem}`;

function page(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escape(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body>${body}</body></html>`;
}

/** Who asks, where the tokens go, what they may do; sign in, then Allow or Deny. Posts back to its own URL. */
export function consentPage(view: ConsentView, nonce: string): string {
  const name = escape(view.clientName);
  const loopback = view.redirectIsLoopback
    ? `<p class="warn">Access goes to a program on this computer. Continue only if you just started connecting from it.</p>`
    : "";
  const error = view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : "";
  const origin = view.clientDomain
    ? `Published by <strong>${escape(view.clientDomain)}</strong>.`
    : "This app registered itself; its name is not verified.";
  return page(
    `Allow ${view.clientName}?`,
    `<h1>Allow <strong>${name}</strong> to use your todos?</h1>
<p>${origin} Access will be sent to <strong>${escape(view.redirectHost)}</strong>.</p>
${loopback}${error}
<form method="post">
<input type="hidden" name="handle" value="${escape(view.handle)}">
<p>It will be able to read your todos and their attachments.</p>
<label><input type="checkbox" name="write" value="todos:write"${view.write ? " checked" : ""}> Also create, change, complete and delete your todos</label>
<label><input type="checkbox" name="files" value="files:read"${view.files ? " checked" : ""}> Also read your files (names, types and contents, private ones included)</label>
<label>Username <input type="text" name="username" autocomplete="username" required value="${escape(view.username ?? "")}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<p><button name="decision" value="approve">Allow</button><button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>
<p>You can disconnect it at any time under Connected apps.</p>`,
    nonce,
  );
}

/** A refusal shown here rather than sent to the client (its redirect URI is unknown or not trusted). */
export function errorPage(message: string, nonce: string): string {
  return page(
    "Cannot connect this app",
    `<h1>This app cannot be connected</h1><p class="error" role="alert">${escape(message)}</p><p>Start again from the app.</p>`,
    nonce,
  );
}

/**
 * Headers of every page: nothing runs, nothing embeds it, the form posts only here and to the client
 * it redirects to (`formTargets`: Chrome applies form-action to the redirect after the post).
 */
export function pageHeaders(nonce: string, formTargets: string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(" ");
  return {
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
  };
}
