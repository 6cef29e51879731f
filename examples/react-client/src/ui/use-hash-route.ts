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

// The token of an e-mailed link: `#/<page>?token=...` (the service's PASSWORD_RESET_URL, EMAIL_CONFIRM_URL
// and ORG_INVITE_URL).
function linkToken(page: string): string | null {
  const match = new RegExp(`^#/${page}\\?(.*)$`).exec(window.location.hash);
  return match ? new URLSearchParams(match[1]).get("token") : null;
}

const resetToken = () => linkToken("reset-password");
const confirmEmailToken = () => linkToken("confirm-email");
const inviteToken = () => linkToken("accept-invite");

/** The token of a password-reset link this page was opened with, or null. */
export function useResetToken(): string | null {
  return useSyncExternalStore(subscribe, resetToken);
}

/** The token of an e-mail verification or change link this page was opened with, or null. */
export function useConfirmEmailToken(): string | null {
  return useSyncExternalStore(subscribe, confirmEmailToken);
}

/**
 * The token of a team invitation link this page was opened with, or null. It stays in the URL while
 * someone signs in or registers, so the accept page comes back after.
 */
export function useInviteToken(): string | null {
  return useSyncExternalStore(subscribe, inviteToken);
}

/** A query parameter of the current screen's URL (`#/teams?team=3`), or null. */
export function useHashParam(name: string): string | null {
  return useSyncExternalStore(subscribe, () => {
    const query = /\?(.*)$/.exec(window.location.hash)?.[1];
    return query ? new URLSearchParams(query).get(name) : null;
  });
}
