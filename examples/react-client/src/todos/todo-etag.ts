/**
 * The `If-Match` header for a write to `todo` as it was read: the service's strong ETag,
 * `"todo-<id>-v<version>"`. If the todo changed since, the service writes nothing and answers 412.
 */
export function ifMatch(todo: { id: number; version: number }): { "if-match": string } {
  return { "if-match": `"todo-${todo.id}-v${todo.version}"` };
}
