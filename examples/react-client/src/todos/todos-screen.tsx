import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { TodoCreateForm } from "./todo-create-form";
import { TodoDetail } from "./todo-detail";
import { ifMatch } from "./todo-etag";
import type { TodoPage, TodoSummary } from "./types";
import { useTodoFeed, type TodoEvent } from "./use-todo-feed";

const PAGE_SIZE = 10;
type Filter = "all" | "open" | "done";

/**
 * The signed-in user's todos, a page at a time, with a form to add one and a detail panel. The list
 * follows the live feed: a write from another tab, the chat's tools or an MCP client shows at once.
 */
export function TodosScreen({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<Filter>("all");
  const [list, setList] = useState<TodoPage | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  // Bumped after every change, so the list and the detail load again.
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  // The latest feed event, and whether the feed is open.
  const [remote, setRemote] = useState<TodoEvent | null>(null);
  const [live, setLive] = useState(false);
  const changed = () => setVersion((v) => v + 1);
  const [listVersion, setListVersion] = useState(0);
  useTodoFeed(userId, {
    onEvent: (event) => {
      setRemote(event);
      setListVersion((v) => v + 1);
    },
    onLive: setLive,
  });

  useEffect(() => {
    let current = true;
    const completed = filter === "all" ? undefined : filter === "done" ? "true" : "false";
    unwrap(api.GET("/api/todos", { params: { query: { page, pageSize: PAGE_SIZE, completed } } })).then(
      (loaded) => {
        // Without updatedSince the list is always a page (the delta answer has `changes` instead).
        if (!current || !("items" in loaded)) return;
        setError(null);
        // Deleting the last todo of the last page: step back to a page that exists.
        if (loaded.items.length === 0 && loaded.page > 1) setPage(Math.max(1, loaded.totalPages));
        else setList(loaded);
      },
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, [page, filter, version, listVersion]);

  async function toggle(todo: TodoSummary, completed: boolean) {
    try {
      await unwrap(
        api.POST("/api/todos/{id}", {
          params: { path: { id: todo.id }, header: ifMatch(todo) },
          body: { completed },
        }),
      );
      changed();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div className="todos">
      <TodoCreateForm
        onCreated={(todo) => {
          setSelected(todo.id);
          changed();
        }}
      />
      <section className="card" aria-label="Todo list">
        <header>
          <h2>Todos</h2>
          <span className="muted" aria-label="Live updates">
            {live ? "live" : "offline"}
          </span>
          <label className="inline">
            Show
            <select
              value={filter}
              onChange={(event) => {
                setFilter(event.currentTarget.value as Filter);
                setPage(1);
              }}
            >
              <option value="all">all</option>
              <option value="open">open</option>
              <option value="done">done</option>
            </select>
          </label>
        </header>
        <ErrorMessage error={error} />
        {list && list.items.length === 0 && <p className="muted">Nothing here yet.</p>}
        <ul className="todo-list">
          {list?.items.map((todo) => (
            <li key={todo.id} className={todo.id === selected ? "selected" : undefined}>
              <input
                type="checkbox"
                checked={todo.completed}
                aria-label={`Done: ${todo.title}`}
                onChange={(event) => void toggle(todo, event.currentTarget.checked)}
              />
              <button
                type="button"
                className={todo.completed ? "link title done" : "link title"}
                onClick={() => setSelected(todo.id)}
              >
                {todo.title}
              </button>
            </li>
          ))}
        </ul>
        {list && (
          <nav className="pager" aria-label="Pages">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span aria-live="polite">
              Page {list.page} of {Math.max(1, list.totalPages)} · {list.total} todos
            </span>
            <button type="button" disabled={page >= list.totalPages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        )}
      </section>
      {selected !== null && (
        <TodoDetail
          key={selected}
          id={selected}
          version={version}
          remote={remote?.id === selected ? remote : null}
          onChanged={changed}
          onClose={() => setSelected(null)}
        />
      )}
    </div>
  );
}
