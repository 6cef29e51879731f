import { ToolError, type TodoTool } from "../core/tools";
import { createTodoTools, runTool } from "../todos/todo-tools";
import { authenticateForResource } from "../auth/authenticate";
import { noteKeyUse } from "../auth/api-keys/key-auth";
import {
  oauthChallenge,
  oauthIssuer,
  OAUTH_SCOPES,
  PROTECTED_RESOURCE_PATH,
  REQUIRED_SCOPES,
} from "../auth/oauth/oauth-resource";
import { unauthorized } from "../http/require-auth";
import { missingScope } from "../auth/scopes";
import type { ApiKeyScope } from "../db/credentials-schema";
import { openDatabases } from "../db/databases";
import { MCP_CORS_HEADERS } from "../http/cors";
import type { AppRouter } from "../http/create-app";
import { background } from "../http/background";
import { ApiError } from "../http/errors";
import type { McpCredential } from "../auth/credentials";
import { fileCatalog } from "../files/file-catalog";
import { auditCredential } from "../http/audit-actor";
import type { AuditActor } from "../orgs/audit.queries";
import { createTeamTools } from "../orgs/team-tools";
import { scopesCalled } from "./tool-calls";

export const MCP_PATH = PROTECTED_RESOURCE_PATH;

const holder = (credential: McpCredential) => (credential.kind === "oauth" ? "grant" : "API key");

/**
 * 403 for a credential without `needed`. An OAuth grant also gets a scope challenge naming every scope
 * the operation needs, so its client can step up; an API key cannot, and is told which scope it lacks.
 */
function forbidden(
  credential: McpCredential,
  needed: readonly ApiKeyScope[],
  issuer: string | null,
): ApiError {
  const missing = missingScope(credential, needed);
  const headers: Record<string, string> = { ...MCP_CORS_HEADERS };
  if (credential.kind === "oauth") {
    // The scopes held stay in the challenge: asking again for only the missing ones would drop them.
    const scopes = OAUTH_SCOPES.filter((s) => needed.includes(s) || credential.scopes.includes(s));
    headers["WWW-Authenticate"] =
      `Bearer realm="mcp", error="insufficient_scope"${oauthChallenge(issuer, scopes)}`;
  }
  return new ApiError(403, `This ${holder(credential)} lacks the scope ${missing}`, undefined, headers);
}

/** The tools as `credential` may use them: without `todos:write`, every writing tool answers a tool error. */
function scopedTools(tools: Record<string, TodoTool>, credential: McpCredential): Record<string, TodoTool> {
  const missing = missingScope(credential, ["todos:write"]);
  if (!missing) return tools;
  const refuse = async () => {
    throw new ToolError(`This ${holder(credential)} lacks the scope ${missing}`);
  };
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [name, tool.writes ? { ...tool, execute: refuse } : tool]),
  );
}

const writingTools = (tools: Record<string, TodoTool>) =>
  new Set(Object.keys(tools).filter((name) => tools[name]!.writes));

// Resource links in tool answers came with this protocol revision; a request without the header is 2025-03-26.
const LINKS_SINCE = "2025-06-18";

/**
 * `/mcp`: Streamable HTTP (stateless) exposing the todo and team tools, and with `files:read` the files
 * (their own and their teams') as resources, of the user whose login token, API key with `todos:read`, or OAuth access token for this
 * resource comes in `Authorization: Bearer`. The
 * credential is checked before any MCP message is read; a 401 leads an MCP client to OAuth (RFC 9728).
 */
export function mountMcp(app: AppRouter) {
  app.all(MCP_PATH, async (c) => {
    // A CORS preflight carries no credentials and runs nothing.
    if (c.req.method === "OPTIONS") return c.body(null, 204, MCP_CORS_HEADERS);

    const issuer = oauthIssuer(c.req.url);
    const auth = await authenticateForResource(c.env, c.req.header("Authorization"), issuer);
    if (!auth.ok) throw unauthorized(auth.reason, "mcp", MCP_CORS_HEADERS, oauthChallenge(issuer));
    const { credential, user } = auth;
    if (missingScope(credential, REQUIRED_SCOPES)) throw forbidden(credential, REQUIRED_SCOPES, issuer);
    c.set("user", user);

    const logger = c.get("logger");
    const dbs = openDatabases(c.env);
    const db = dbs.directory;
    // Writes answer before their feed publish, as on /api (the publish runs after the answer).
    const actor: AuditActor = {
      actorId: user.id,
      door: "mcp",
      credential: auditCredential(credential.kind),
      ip: c.req.header("cf-connecting-ip") ?? null,
      requestId: c.get("requestId"),
    };
    const tools = {
      ...createTodoTools({ env: c.env, dbs, logger, waitUntil: background(c), actor }, user.id),
      ...createTeamTools(db, user.id),
    };
    // A grant is challenged for what the request calls; the body is read only when it lacks a scope.
    if (credential.kind === "oauth" && missingScope(credential, ["todos:write", "files:read"])) {
      const needed = [...REQUIRED_SCOPES, ...(await scopesCalled(c.req.raw, writingTools(tools)))];
      if (missingScope(credential, needed)) throw forbidden(credential, needed, issuer);
    }
    if (credential.kind !== "oauth") await noteKeyUse(db, credential);
    const noFiles = missingScope(credential, ["files:read"]);
    const version = c.req.header("MCP-Protocol-Version");
    const files = {
      catalog: fileCatalog(dbs, c.env.R2_BUCKET, user.id),
      refusal: noFiles && `This ${holder(credential)} lacks the scope ${noFiles}`,
      links: version !== undefined && version >= LINKS_SINCE,
    };
    // The MCP SDK loads on the first /mcp request, not in every new isolate (see serve-mcp.ts).
    const { serveMcp } = await import("./serve-mcp");
    return serveMcp(MCP_PATH, c.req.raw, scopedTools(tools, credential), runTool, files, (error) =>
      logger.warn("mcp_error", { error: String(error) }),
    );
  });
}
