import { useSyncExternalStore } from "react";

export const ROUTES = ["todos", "files", "counter", "chat"] as const;
export type Route = (typeof ROUTES)[number];

function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, "");
  return (ROUTES as readonly string[]).includes(hash) ? (hash as Route) : "todos";
}

function subscribe(listener: () => void) {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
}

/** `#/todos`, `#/files`, `#/counter`, `#/chat`: linkable screens without a router dependency. */
export function useHashRoute(): Route {
  return useSyncExternalStore(subscribe, current);
}
