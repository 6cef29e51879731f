import { useSyncExternalStore } from "react";
import type { components } from "../api/schema";

export type Session = components["schemas"]["LoginResult"];

// sessionStorage: the tokens survive a reload but not the tab, and no other site can read them. Each
// tab signs in on its own, so no two tabs spend the same refresh token.
const STORAGE_KEY = "workers-api-client.session";

function load(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

let current = load();
let notice: string | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function getSession(): Session | null {
  return current;
}

/** Stores a login result: after sign-in, and after each refresh (a new token and refresh token). */
export function signIn(session: Session) {
  current = session;
  notice = null;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  emit();
}

/** Forgets the token; `reason` is shown on the sign-in screen (for example an expired session). */
export function signOut(reason: string | null = null) {
  current = null;
  notice = reason;
  sessionStorage.removeItem(STORAGE_KEY);
  emit();
}

export function signOutNotice(): string | null {
  return notice;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession);
}
