// /llms.txt and /llms-full.txt (https://llmstxt.org): what the service is, every operation of
// openapi.json with its method, path and summary, where MCP, OAuth and the agents are, and the guide's
// headings; the full file adds each operation's description and the guide's text. Written into public/
// by the build (scripts/build-worker.mjs), so they always match the committed openapi.json and docs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GUIDE_PAGES } from "./guide.mjs";
import { writeIfChanged } from "./write-if-changed.mjs";

const METHODS = ["get", "head", "post", "put", "patch", "delete"];

const ENTRY_POINTS = `## Where things are

- Interactive reference: \`/docs\`; the OpenAPI 3.1 document: \`/openapi.json\`; this file: \`/llms.txt\`,
  the long form \`/llms-full.txt\`.
- Credentials: \`Authorization: Bearer <token>\` with the login JWT of \`POST /api/login\` (or register,
  refresh); an API key (\`wsk_…\`, \`POST /api/keys\`) where an operation lists its scopes; on \`/mcp\` also an
  OAuth access token. Errors are JSON: \`{"success":false,"error":{"message":"..."}}\`.
- MCP: \`POST /mcp\` (Streamable HTTP, stateless): the signed-in user's todo tools (listTodos, searchTodos,
  getTodo, listAttachments, createTodo, updateTodo, completeTodo, deleteTodo) and listTeams; each todo tool
  takes an optional \`orgId\` and acts on that team's todos with the user's role (a viewer only reads); with
  \`files:read\`, the user's files and their teams' as resources.
- OAuth 2.1 for AI clients of \`/mcp\`: \`/.well-known/oauth-protected-resource/mcp\`,
  \`/.well-known/oauth-authorization-server\`, \`POST /oauth/register\`, \`/oauth/authorize\` (PKCE S256),
  \`POST /oauth/token\`; scopes \`todos:read\`, \`todos:write\`.
- Agents (WebSocket, Cloudflare Agents SDK): \`/agents/counter-agent/<name>\`, \`/agents/chat-agent/<chat id>\`
  (its transcript: \`.../get-messages\`), \`/agents/todo-feed-agent/user-<id>\` (your todo events and your
  teams', each naming its \`orgId\`, with who of each team is online); a connect ticket from
  \`POST /api/agents/tickets\` goes in \`?ticket=\`.
- Teams: \`orgId\` on \`POST /api/todos\` and \`GET /api/todos?orgId=\` makes or lists a team's todos; the item
  routes work on them by role (viewers read, members and up write).
- Shards: each user's and team's data lives in one of several D1 databases, found by the service (never
  named by a client). While an admin moves a workspace between them, a write may answer 503 with
  \`Retry-After\`: retry after that many seconds; nothing was written.
`;

function credentials(operation, document) {
  const security = operation.security ?? document.security ?? [];
  if (security.length === 0) return "public";
  return security
    .map((entry) => {
      const [scheme, scopes] = Object.entries(entry)[0];
      if (scheme === "apiKey") return scopes.length ? `API key with ${scopes.join(" and ")}` : "any API key";
      return "login token";
    })
    .join(" or ");
}

function operations(document) {
  const byTag = new Map((document.tags ?? []).map((tag) => [tag.name, { tag, items: [] }]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name = operation.tags?.[0] ?? "Other";
      if (!byTag.has(name)) byTag.set(name, { tag: { name }, items: [] });
      byTag.get(name).items.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return [...byTag.values()].filter((group) => group.items.length > 0);
}

/** The headings of a markdown file, outside fenced blocks. */
export function headings(markdown) {
  const found = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^(#{1,4})\s+(.+?)\s*$/.exec(line);
    if (match) found.push({ depth: match[1].length, text: match[2] });
  }
  return found;
}

function guideSection(root) {
  const lines = ["## The guide", "", "Pages of `docs/` in the repository, with their sections:", ""];
  for (const page of GUIDE_PAGES) {
    if (!existsSync(join(root, page))) continue;
    const [title, ...rest] = headings(readFileSync(join(root, page), "utf8"));
    const sections = rest.filter((h) => h.depth === 2).map((h) => h.text);
    lines.push(`- ${title?.text ?? page} (\`${page}\`): ${sections.join("; ")}`);
  }
  return lines.join("\n");
}

/** Both texts, from the document and the markdown under `root`. */
export function buildLlmsTexts(document, root) {
  const head = [`# ${document.info.title}`, "", `> ${document.info.description}`, "", ENTRY_POINTS].join(
    "\n",
  );
  const short = ["## Operations", ""];
  const long = ["## Operations", ""];
  for (const { tag, items } of operations(document)) {
    const title = tag.description ? `### ${tag.name}: ${tag.description}` : `### ${tag.name}`;
    short.push(title, "");
    long.push(title, "");
    for (const { method, path, operation } of items) {
      const line = `- \`${method} ${path}\` (${operation.operationId}, ${credentials(operation, document)}): ${operation.summary ?? ""}`;
      short.push(line);
      long.push(line);
      if (operation.description) long.push(`  ${operation.description.replace(/\n+/g, " ")}`);
    }
    short.push("");
    long.push("");
  }
  const guide = guideSection(root);
  const pages = ["README.md", ...GUIDE_PAGES]
    .filter((page) => existsSync(join(root, page)))
    .map((page) => `---\n\nFile \`${page}\`:\n\n${readFileSync(join(root, page), "utf8").trim()}\n`);
  return {
    llms: `${head}\n${short.join("\n")}\n${guide}\n\nThe guide's full text, and each operation's description: \`/llms-full.txt\`.\n`,
    full: `${head}\n${long.join("\n")}\n${guide}\n\n${pages.join("\n")}`,
  };
}

/**
 * Writes public/llms.txt and public/llms-full.txt from openapi.json and the guide under `root`; a folder
 * without them (a test's copy of the config, the bench's baseline) has nothing to write.
 */
export function writeLlmsTexts(root) {
  if (!existsSync(join(root, "openapi.json")) || !existsSync(join(root, "public"))) return;
  const document = JSON.parse(readFileSync(join(root, "openapi.json"), "utf8"));
  const { llms, full } = buildLlmsTexts(document, root);
  writeIfChanged(join(root, "public", "llms.txt"), llms);
  writeIfChanged(join(root, "public", "llms-full.txt"), full);
}
