import type { components } from "../api/schema";

export type Scope = components["schemas"]["ApiKeyScope"];

/** What each permission lets a key do, in the words of the person granting it. */
export const SCOPES: { scope: Scope; label: string; hint: string }[] = [
  { scope: "todos:read", label: "Read todos", hint: "List and read your todos (REST and /mcp)." },
  { scope: "todos:write", label: "Change todos", hint: "Create, edit, complete and delete them." },
  { scope: "files:read", label: "Read files", hint: "List your files and download private ones." },
  { scope: "files:write", label: "Upload and delete files", hint: "Upload, delete and share your files." },
  {
    scope: "agents:connect",
    label: "Connect to agents",
    hint: "Open the counter and chat (a chat also needs both todo permissions and Read files).",
  },
  { scope: "chats:read", label: "Read chats", hint: "List your chats: their titles and latest messages." },
  { scope: "chats:write", label: "Change chats", hint: "Start new chats and change their titles." },
];

export const scopeLabel = (scope: Scope) => SCOPES.find((item) => item.scope === scope)?.label ?? scope;
