import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type McpServer,
  type Resource,
  type ResourceLink,
} from "@modelcontextprotocol/server";
// Types only: this module loads with the MCP SDK on the first /mcp request; the catalog is handed in.
import type { FileCatalog, FileEntry } from "../files/file-catalog";

/** The user's files on an MCP server, and why the credential may not read them (null when it may). */
export interface FileResources {
  catalog: FileCatalog;
  refusal: string | null;
}

const resource = (file: FileEntry): Resource => ({
  uri: file.uri,
  name: file.name,
  mimeType: file.mimeType,
  size: file.size,
  annotations: { lastModified: file.createdAt },
});

/** A link to a file in a tool's answer: the client reads it with resources/read. */
export const resourceLink = (file: FileEntry): ResourceLink => ({ type: "resource_link", ...resource(file) });

function refuse(files: FileResources): void {
  if (files.refusal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, files.refusal);
}

/**
 * resources/list (paged by the same opaque cursor as GET /api/files) and resources/read (text, or a
 * base64 blob, up to the catalog's bound). McpServer's own resource handlers cannot page, so these are
 * set on its protocol server.
 */
export function serveFileResources(server: McpServer, files: FileResources): void {
  const protocol = server.server;
  protocol.registerCapabilities({ resources: {} });
  protocol.setRequestHandler("resources/list", async (request) => {
    refuse(files);
    const page = await files.catalog.page(request.params?.cursor);
    if (!page)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass a nextCursor as given");
    return {
      resources: page.entries.map(resource),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  });
  protocol.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: [] }));
  protocol.setRequestHandler("resources/read", async (request) => {
    refuse(files);
    const { uri } = request.params;
    const reading = await files.catalog.read(uri);
    switch (reading.kind) {
      case "not_found":
        throw new ResourceNotFoundError(uri, `File not found: ${uri}`);
      case "too_large":
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, reading.message);
      case "text":
        return { contents: [{ uri, mimeType: reading.entry.mimeType, text: reading.text }] };
      case "blob":
        return { contents: [{ uri, mimeType: reading.entry.mimeType, blob: reading.base64 }] };
    }
  });
}
