import { useEffect, useRef, useState } from "react";
import { api, unwrap } from "../api/client";
import type { Todo, TodoSummary } from "./types";

const key = (todo: { id: number; version: number }) => `${todo.id}:${todo.version}`;

/**
 * How many files each listed todo has. The list's items carry no attachment data (the service
 * spec's `pageTodoVo`), so each todo is read once per version and remembered; a page that comes
 * back unchanged costs nothing.
 */
export function useAttachmentCounts(items: TodoSummary[]): {
  count: (todo: TodoSummary) => number | undefined;
  remember: (todo: Todo) => void;
} {
  const counts = useRef(new Map<string, number>());
  const asked = useRef(new Set<string>());
  const [, rerender] = useState(0);

  useEffect(() => {
    for (const todo of items) {
      if (counts.current.has(key(todo)) || asked.current.has(key(todo))) continue;
      asked.current.add(key(todo));
      unwrap(api.GET("/api/todos/{id}", { params: { path: { id: todo.id } } })).then(
        (full) => {
          counts.current.set(key(full), full.attachments.length);
          rerender((n) => n + 1);
        },
        // A todo deleted meanwhile: the list drops it on its next load.
        () => asked.current.delete(key(todo)),
      );
    }
  }, [items]);

  return {
    count: (todo) => counts.current.get(key(todo)),
    remember: (todo) => {
      counts.current.set(key(todo), todo.attachments.length);
      rerender((n) => n + 1);
    },
  };
}
