// docs/security.md K2: which operations take an API key, and with which scopes, as the committed
// openapi.json states it (the gate reads the same security requirements from the app's registry, and
// test/api/skeleton.test.ts keeps the file equal to the app's document).
import { describe, expect, it } from "vitest";
import document from "../../openapi.json";

const KEY_ACCESS: Record<string, string[]> = {
  "GET /api/me": [],
  "GET /api/todos": ["todos:read"],
  "GET /api/todos/{id}": ["todos:read"],
  "GET /api/users/{userId}/todos": ["todos:read"],
  "POST /api/todos": ["todos:write"],
  "POST /api/todos/{id}": ["todos:write"],
  "POST /api/todos/{id}/delete": ["todos:write"],
  "POST /api/todos/{id}/restore": ["todos:write"],
  "POST /api/upload": ["files:write"],
  "POST /api/uploads": ["files:write"],
  "PUT /api/uploads/{uploadId}/parts/{partNumber}": ["files:write"],
  "POST /api/uploads/{uploadId}/complete": ["files:write"],
  "POST /api/uploads/{uploadId}/abort": ["files:write"],
  "POST /api/agents/tickets": ["agents:connect"],
  "POST /api/chats": ["chats:write"],
  "GET /api/chats": ["chats:read"],
  "GET /api/chats/{id}": ["chats:read"],
  "POST /api/chats/{id}": ["chats:write"],
  "GET /api/ai/usage": ["chats:read"],
  "GET /api/files": ["files:read"],
  "GET /api/files/{key}": ["files:read"],
  "POST /api/files/{key}/delete": ["files:write"],
  "POST /api/files/{key}/restore": ["files:write"],
  "GET /api/files/{key}/links": ["files:read"],
  "POST /api/files/{key}/links": ["files:write"],
  "POST /api/files/{key}/links/{linkId}/revoke": ["files:write"],
};

type Security = Record<string, string[]>[];

function operations() {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { security?: Security }>).map(([method, op]) => ({
      id: `${method.toUpperCase()} ${path}`,
      security: op.security ?? (document.security as Security),
    })),
  );
}

describe("API key access per operation", () => {
  it("keys reach exactly the listed operations with exactly the listed scopes; the rest need a sign-in", () => {
    const actual: Record<string, string[]> = {};
    for (const op of operations()) {
      const key = op.security.find((requirement) => "apiKey" in requirement);
      if (key) actual[op.id] = key.apiKey!;
    }
    expect(actual).toEqual(KEY_ACCESS);
  });

  it("every protected operation also takes a sign-in token", () => {
    for (const op of operations()) {
      if (op.security.length === 0) continue;
      expect(
        op.security.some((requirement) => "bearerAuth" in requirement),
        op.id,
      ).toBe(true);
    }
  });
});
