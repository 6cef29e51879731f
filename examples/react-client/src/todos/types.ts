import type { components } from "../api/schema";

// Named by the service's OpenAPI components; regenerate with `npm run types`.
export type TodoSummary = components["schemas"]["PageTodoVo"];
export type Todo = components["schemas"]["TodoVo"];
export type Attachment = components["schemas"]["TodoAttachment"];
export type TodoPage = components["schemas"]["TodoPage"];
export type UpdateTodoBody = components["schemas"]["UpdateTodoBody"];
