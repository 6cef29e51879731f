// The scopes a /mcp request needs, read before the MCP SDK sees the request: a grant without one
// (`todos:write` for a writing tool, `files:read` for the files as resources) is answered 403 with a
// scope challenge (MCP authorization, "Scope Challenge Handling"), so the client can ask the user for
// more and try again.
import type { ApiKeyScope } from "../db/credentials-schema";

// The MCP handler refuses larger bodies itself (src/mcp/serve-mcp.ts).
const MAX_BODY_BYTES = 1024 * 1024;
// Methods that read the user's files.
const FILE_METHODS = new Set(["resources/list", "resources/read"]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** A copy of the body as text, or null past `max` bytes (the copy is dropped there, the request is untouched). */
async function peekBody(request: Request, max: number): Promise<string | null> {
  const reader = request.clone().body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}

/** The scopes one JSON-RPC message needs beyond `todos:read`. */
function scopesOf(message: unknown, writingTools: ReadonlySet<string>): ApiKeyScope[] {
  if (!isObject(message) || typeof message.method !== "string") return [];
  if (FILE_METHODS.has(message.method)) return ["files:read"];
  const tool = message.method === "tools/call" && isObject(message.params) ? message.params.name : undefined;
  return typeof tool === "string" && writingTools.has(tool) ? ["todos:write"] : [];
}

/**
 * The scopes a POST of JSON-RPC (one message or a batch) needs beyond `todos:read`. A body that is not
 * readable JSON needs none: the MCP handler answers it, and the tools and resources still check scopes.
 */
export async function scopesCalled(
  request: Request,
  writingTools: ReadonlySet<string>,
): Promise<ApiKeyScope[]> {
  if (request.method !== "POST") return [];
  const text = await peekBody(request, MAX_BODY_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? "");
  } catch {
    return [];
  }
  return [...new Set([parsed].flat().flatMap((message) => scopesOf(message, writingTools)))];
}
