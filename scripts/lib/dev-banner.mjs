// What `npm run dev` prints once the service answers: where the docs, MCP and the React client are.

/** Polls `${url}/health` until it answers 200 (true), or `stopped()` turns true first (false). */
export async function waitUntilUp(url, stopped) {
  while (!stopped()) {
    try {
      if ((await fetch(`${url}/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** `demo`: the offline demo model answers the chat (no model configured). */
export function devBanner(url, { demo = false } = {}) {
  return [
    "",
    `  Workers API Service is up at ${url}`,
    ...(demo
      ? [
          "  Chat model    the offline demo (a script, not AI): to connect a model, see docs/agents.md#ai-models",
        ]
      : []),
    `  API docs      ${url}/docs   (OpenAPI: ${url}/openapi.json, for AI readers: ${url}/llms.txt)`,
    `  MCP server    ${url}/mcp    (add it to an AI client as a custom connector)`,
    "  React client  in another terminal: npm run client, then open http://localhost:5173",
    '  A five-minute tour with curl: README.md, "A five-minute tour"',
    "",
    "",
  ].join("\n");
}
