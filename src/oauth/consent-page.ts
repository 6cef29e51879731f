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

// The React client's look (Tailwind's slate and orange; orange 700 keeps white text at 5.2:1), in
// plain CSS: no script runs here, so no framework either.
const STYLE = `*{box-sizing:border-box}body{margin:0;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:28rem;margin:0 auto;padding:2.5rem 1rem}.brand{display:flex;align-items:center;gap:.5rem;font-weight:600;margin:0 0 1.5rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 2px #0f172a0d}
h1{font-size:1.4rem;line-height:1.3;margin:0 0 .75rem;overflow-wrap:anywhere}p{margin:.75rem 0;color:#334155}
.warn{background:#fffbeb;border:1px solid #fcd34d;border-radius:.5rem;padding:.5rem .75rem;color:#451a03}
.error{background:#fef2f2;border:1px solid #fecaca;border-radius:.5rem;padding:.5rem .75rem;color:#991b1b}
label{display:block;margin:1rem 0 0;font-size:.875rem;font-weight:500;color:#1e293b}
input[type=text],input[type=password]{display:block;width:100%;margin-top:.25rem;padding:.5rem .75rem;font:inherit;border:1px solid #cbd5e1;border-radius:.5rem}
label.check{display:flex;gap:.6rem;align-items:flex-start;font-weight:400}label.check input{margin-top:.3rem;accent-color:#c2410c}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.5rem}
button{min-height:2.5rem;padding:0 1.25rem;font:inherit;font-size:.875rem;font-weight:500;border-radius:.5rem;border:1px solid #cbd5e1;background:#fff;color:#0f172a;cursor:pointer}
button.primary{background:#c2410c;border-color:#c2410c;color:#fff}button.primary:hover{background:#9a3412}button:hover{background:#f1f5f9}
:focus-visible{outline:2px solid #c2410c;outline-offset:2px}.note{font-size:.875rem;color:#475569}`;

// The app's mark (also its favicon), inline: this page loads nothing else.
const LOGO = `<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#f6821f"/><path d="m9 16.5 4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

function page(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escape(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><p class="brand">${LOGO}Workers API</p><div class="card">${body}</div></main></body></html>`;
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
<label class="check"><input type="checkbox" name="write" value="todos:write"${view.write ? " checked" : ""}> Also create, change, complete and delete your todos</label>
<label class="check"><input type="checkbox" name="files" value="files:read"${view.files ? " checked" : ""}> Also read your files (names, types and contents, private ones included)</label>
<label>Username <input type="text" name="username" autocomplete="username" required value="${escape(view.username ?? "")}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<div class="actions"><button class="primary" name="decision" value="approve">Allow</button><button name="decision" value="deny" formnovalidate>Deny</button></div>
</form>
<p class="note">You can disconnect it at any time under Connected apps.</p>`,
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
 * it redirects to (`formTargets`: Chrome applies form-action to the redirect after the post). Images
 * only from here: the favicon.
 */
export function pageHeaders(nonce: string, formTargets: string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(" ");
  return {
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
  };
}
