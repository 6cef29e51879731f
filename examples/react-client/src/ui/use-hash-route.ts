import { useSyncExternalStore } from "react";

function subscribe(listener: () => void) {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
}

const currentPath = () => window.location.hash.replace(/^#\/?/, "").replace(/\?.*$/, "");

/** The screen path in the URL (`#/files` -> "files"): linkable screens without a router dependency. */
export function useHashPath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

/** Opens another screen. */
export function navigate(path: string): void {
  window.location.hash = `#/${path}`;
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
