// What `npm run dev` prints once the service answers: where the client, the docs, MCP and the local
// e-mail outbox are.

/** The local explorer's page of the e-mails the simulated Email Service (send_email) "sent". */
export const OUTBOX_PATH = "/cdn-cgi/local/explorer/email/sending";

/**
 * Polls `${url}/health` until it answers 200 ({ up: true }), the Worker refuses its settings
 * ({ refused: message }: it answers every request 500 "Misconfigured: ..."), or `stopped()` turns
 * true first ({}).
 */
export async function waitUntilUp(url, stopped) {
  while (!stopped()) {
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return { up: true };
      const message = res.status === 500 ? (await res.json().catch(() => null))?.error?.message : undefined;
      if (typeof message === "string" && message.startsWith("Misconfigured:")) return { refused: message };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {};
}

/** `demo`: the offline demo model answers the chat (no model configured). */
export function devBanner(url, { demo = false } = {}) {
  return [
    "",
    `  Workers API Service is up at ${url}`,
    `  React client  ${url}/app/`,
    ...(demo
      ? [
          "  Chat model    the offline demo (a script, not AI): to connect a model, see docs/agents.md#ai-models",
        ]
      : []),
    `  API docs      ${url}/docs   (OpenAPI: ${url}/openapi.json, for AI readers: ${url}/llms.txt)`,
    `  MCP server    ${url}/mcp    (add it to an AI client as a custom connector)`,
    `  E-mail outbox ${url}${OUTBOX_PATH}   (what the service "sent": nothing leaves your machine)`,
    '  A five-minute tour with curl: README.md, "A five-minute tour"',
    "",
    "",
  ].join("\n");
}
