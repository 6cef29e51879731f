import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";

export type Chat = components["schemas"]["Chat"];

// The sidebar shows the most recent chats; older ones stay in the index.
const SHOWN = 50;

/**
 * The signed-in user's chats, most recent activity first (GET /api/chats), and the changes made here:
 * create, rename, delete. `reload` fetches the list again (after a turn: previews, order and titles move).
 */
export function useChats() {
  const [chats, setChats] = useState<Chat[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    try {
      const page = await unwrap(api.GET("/api/chats", { params: { query: { limit: SHOWN } } }));
      setChats(page.items);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const create = useCallback(async (): Promise<Chat> => {
    const chat = await unwrap(api.POST("/api/chats", { body: {} }));
    setChats((shown) => [chat, ...(shown ?? [])]);
    return chat;
  }, []);

  const rename = useCallback(async (id: string, title: string) => {
    const chat = await unwrap(api.POST("/api/chats/{id}", { params: { path: { id } }, body: { title } }));
    setChats((shown) => shown?.map((c) => (c.id === id ? chat : c)) ?? null);
  }, []);

  const remove = useCallback(async (id: string) => {
    await unwrap(api.POST("/api/chats/{id}/delete", { params: { path: { id } } }));
    setChats((shown) => shown?.filter((c) => c.id !== id) ?? null);
  }, []);

  /** A title the chat's socket announced (`chat_title`), shown before the next reload. */
  const titled = useCallback((id: string, title: string) => {
    setChats((shown) => shown?.map((c) => (c.id === id && c.title === null ? { ...c, title } : c)) ?? null);
  }, []);

  return { chats, error, reload, create, rename, remove, titled, setError };
}
