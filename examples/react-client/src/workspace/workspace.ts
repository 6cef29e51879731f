import { useSyncExternalStore } from "react";

/** Whose todos and files the screens show: `null` for your own, or a team's id. */
export type Workspace = number | null;

// localStorage: the choice outlives the tab and is shared by Todos and Files (and other tabs).
const KEY = "workspace";
const listeners = new Set<() => void>();

function read(): Workspace {
  const id = Number(localStorage.getItem(KEY));
  return Number.isInteger(id) && id > 0 ? id : null;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const fromOtherTab = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener("storage", fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", fromOtherTab);
  };
}

export function setWorkspace(orgId: Workspace) {
  if (orgId === null) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, String(orgId));
  for (const listener of listeners) listener();
}

/** The chosen workspace, re-rendering when it changes here or in another tab. */
export function useWorkspace(): Workspace {
  return useSyncExternalStore(subscribe, read);
}
