import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api, unwrap } from "../api/client";
import { humanError } from "../api/human-error";
import { toast } from "../ui/toast";
import { setWorkspace } from "../workspace/workspace";
import { ifMatch } from "./todo-etag";
import type { TodoPage, TodoSummary } from "./types";
import { useTodoFeed, type PresenceEvent, type TodoEvent } from "./use-todo-feed";

export const PAGE_SIZE = 10;
export type Filter = "all" | "open" | "done";

/**
 * The signed-in user's todos, or with `orgId` that team's, a page at a time, following the live feed:
 * a write from another tab, a teammate, the chat's tools or an MCP client reloads the page; the
 * feed's presence says which teammates are online. Ticking a todo shows at once and rolls back if
 * the service refuses; a delete is sent at once, and its Undo restores the todo.
 */
export function useTodoList(userId: number, orgId: number | null) {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<Filter>("all");
  const [list, setList] = useState<TodoPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [remote, setRemote] = useState<TodoEvent | null>(null);
  const [live, setLive] = useState(false);
  const [presence, setPresence] = useState<ReadonlyMap<number, PresenceEvent["online"]>>(new Map());
  // What the person did that the service has not confirmed yet.
  const [ticked, setTicked] = useState<ReadonlyMap<number, boolean>>(new Map());
  const [deleting, setDeleting] = useState<ReadonlySet<number>>(new Set());
  const query = useRef({ page, filter, orgId });
  query.current = { page, filter, orgId };

  const refresh = useCallback(async () => {
    const asked = query.current;
    const completed = asked.filter === "all" ? undefined : asked.filter === "done" ? "true" : "false";
    try {
      const loaded = await unwrap(
        api.GET("/api/todos", {
          params: {
            query: {
              page: asked.page,
              pageSize: PAGE_SIZE,
              completed,
              ...(asked.orgId === null ? {} : { orgId: asked.orgId }),
            },
          },
        }),
      );
      // Without updatedSince the answer is always a page (the delta answer has `changes` instead).
      // A page or filter chosen meanwhile has its own load: this answer is stale.
      const now = query.current;
      if (
        !("items" in loaded) ||
        now.page !== asked.page ||
        now.filter !== asked.filter ||
        now.orgId !== asked.orgId
      )
        return;
      setError(null);
      // Deleting the last todo of the last page: step back to a page that exists.
      if (loaded.items.length === 0 && loaded.page > 1) setPage(Math.max(1, loaded.totalPages));
      else setList(loaded);
    } catch (err) {
      setError(err);
    }
  }, []);

  // Another workspace: its first page, and nothing of the last one's list shown meanwhile.
  const [shownOrg, setShownOrg] = useState(orgId);
  if (shownOrg !== orgId) {
    setShownOrg(orgId);
    setPage(1);
    setList(null);
    setRemote(null);
  }
  useEffect(() => void refresh(), [page, filter, orgId, refresh]);
  useTodoFeed(userId, {
    onEvent: (event) => {
      if (event.type === "presence") {
        setPresence((map) => new Map(map).set(event.orgId, event.online));
        return;
      }
      if (event.type === "team.left") {
        // Removed from the team shown (or it was deleted): its list would now be 404.
        if (event.orgId === query.current.orgId) setWorkspace(null);
        setPresence((map) => {
          const next = new Map(map);
          next.delete(event.orgId);
          return next;
        });
        return;
      }
      // The feed carries every list of yours; only the one shown reloads.
      if ((event.orgId ?? null) !== query.current.orgId) return;
      setRemote(event);
      void refresh();
    },
    onLive: setLive,
  });

  async function toggle(todo: TodoSummary, completed: boolean) {
    setTicked((map) => new Map(map).set(todo.id, completed));
    try {
      await unwrap(
        api.POST("/api/todos/{id}", {
          params: { path: { id: todo.id }, header: ifMatch(todo) },
          body: { completed },
        }),
      );
      await refresh();
    } catch (err) {
      toast({
        tone: "error",
        title: `“${todo.title}” was not changed`,
        description: humanError(err).message,
      });
      void refresh();
    } finally {
      setTicked((map) => {
        const next = new Map(map);
        next.delete(todo.id);
        return next;
      });
    }
  }

  /** Brings a deleted todo back (the same todo, with its attachments) and says so. */
  async function restore(todo: TodoSummary) {
    try {
      await unwrap(api.POST("/api/todos/{id}/restore", { params: { path: { id: todo.id } } }));
      toast({ title: `Restored “${todo.title}”` });
    } catch (err) {
      toast({
        tone: "error",
        title: `“${todo.title}” was not restored`,
        description: humanError(err).message,
      });
    }
    await refresh();
  }

  /**
   * Deletes at once, so every tab, the chat and MCP see it gone, hiding the todo until the service has
   * answered; Undo then restores it through the service.
   */
  async function remove(todo: TodoSummary) {
    const shown = (hidden: boolean) =>
      setDeleting((set) => {
        const next = new Set(set);
        if (hidden) next.add(todo.id);
        else next.delete(todo.id);
        return next;
      });
    shown(true);
    try {
      await unwrap(
        api.POST("/api/todos/{id}/delete", { params: { path: { id: todo.id }, header: ifMatch(todo) } }),
      );
      await refresh();
      toast({
        title: `Deleted “${todo.title}”`,
        action: { label: "Undo", altText: `Undo deleting ${todo.title}`, run: () => void restore(todo) },
      });
    } catch (err) {
      toast({
        tone: "error",
        title: `“${todo.title}” was not deleted`,
        description: humanError(err).message,
      });
    } finally {
      shown(false);
    }
  }

  const items = useMemo(
    () =>
      (list?.items ?? [])
        .filter((todo) => !deleting.has(todo.id))
        .map((todo) => (ticked.has(todo.id) ? { ...todo, completed: ticked.get(todo.id)! } : todo)),
    [list, deleting, ticked],
  );
  // Teammates with the feed open, not counting you.
  const online = useMemo(
    () => (orgId === null ? [] : (presence.get(orgId) ?? []).filter((user) => user.id !== userId)),
    [presence, orgId, userId],
  );
  return {
    page,
    setPage,
    filter,
    setFilter,
    list,
    items,
    error,
    remote,
    live,
    online,
    refresh,
    toggle,
    remove,
  };
}
