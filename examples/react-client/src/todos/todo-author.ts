import { fromNow } from "../ui/format";
import type { TodoSummary } from "./types";

/** What the last write did, as well as a summary can tell: the first version, a tick, or an edit. */
function lastVerb(todo: TodoSummary): string {
  if (todo.version === 1) return "created";
  // Ticking sets completedAt with updatedAt in the same write.
  const ticked =
    todo.completed &&
    todo.completedAt !== null &&
    Math.abs(Date.parse(todo.completedAt) - Date.parse(todo.updatedAt)) < 1000;
  return ticked ? "completed" : "changed";
}

/** "grace completed “Buy milk” 2 minutes ago": who last wrote a team's todo, and when. */
export function authorLine(todo: TodoSummary, now = Date.now()): string {
  const who = todo.updatedByUser?.username ?? "A former member";
  return `${who} ${lastVerb(todo)} “${todo.title}” ${fromNow(todo.updatedAt, now)}`;
}
