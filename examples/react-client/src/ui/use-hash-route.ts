import { useSyncExternalStore } from "react";

export const ROUTES = ["todos", "files", "apps", "counter", "chat"] as const;
export type Route = (typeof ROUTES)[number];

function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, "");
  return (ROUTES as readonly string[]).includes(hash) ? (hash as Route) : "todos";
}

function subscribe(listener: () => void) {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
}

/** `#/todos`, `#/files`, `#/apps`, `#/counter`, `#/chat`: linkable screens without a router dependency. */
export function useHashRoute(): Route {
  return useSyncExternalStore(subscribe, current);
}

// The link of a password-reset e-mail: `#/reset-password?token=...` (the service's PASSWORD_RESET_URL).
function resetToken(): string | null {
  const match = /^#\/reset-password\?(.*)$/.exec(window.location.hash);
  return match ? new URLSearchParams(match[1]).get("token") : null;
}

/** The token of a password-reset link this page was opened with, or null. */
export function useResetToken(): string | null {
  return useSyncExternalStore(subscribe, resetToken);
}
