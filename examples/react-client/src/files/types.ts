import type { components } from "../api/schema";

// Named by the service's OpenAPI components; regenerate with `npm run client:types`.
export type FileRecord = components["schemas"]["FileRecord"];
export type StorageUsage = components["schemas"]["StorageUsage"];
export type FileLink = components["schemas"]["FileLink"];
