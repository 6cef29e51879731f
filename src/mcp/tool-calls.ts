// The tools a /mcp request calls, read before the MCP SDK sees the request: a grant without
// `todos:write` calling a writing tool is answered 403 with a scope challenge (MCP authorization,
// "Scope Challenge Handling"), so the client can ask the user for more and try again.

// The MCP handler refuses larger bodies itself (src/mcp/serve-mcp.ts).
const MAX_BODY_BYTES = 1024 * 1024;

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

/**
 * Whether a POST of JSON-RPC (one message or a batch) calls a tool named in `names`. A body that is
 * not readable JSON says no: the MCP handler answers it, and the tools still check their scopes.
 */
export async function callsToolOf(request: Request, names: ReadonlySet<string>): Promise<boolean> {
  if (request.method !== "POST") return false;
  const text = await peekBody(request, MAX_BODY_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? "");
  } catch {
    return false;
  }
  return [parsed]
    .flat()
    .some(
      (message) =>
        isObject(message) &&
        message.method === "tools/call" &&
        isObject(message.params) &&
        typeof message.params.name === "string" &&
        names.has(message.params.name),
    );
}
