import { useEffect, useRef } from "react";

/** The title a `chat_title` frame announces (the service titles a chat after its first exchange), or null. */
export function chatTitle(data: unknown): string | null {
  if (typeof data !== "string" || !data.includes('"chat_title"')) return null;
  try {
    const frame = JSON.parse(data) as { type?: unknown; title?: unknown };
    return frame.type === "chat_title" && typeof frame.title === "string" ? frame.title : null;
  } catch {
    return null;
  }
}

/** Whether a frame is the service's `chat_model` notice: its offline demo model answers this chat. */
export function isDemoNotice(data: unknown): boolean {
  if (typeof data !== "string" || !data.includes('"chat_model"')) return false;
  try {
    const frame = JSON.parse(data) as { type?: unknown; demo?: unknown };
    return frame.type === "chat_model" && frame.demo === true;
  } catch {
    return false;
  }
}

/** Calls `onEnd` each time a turn ends: the chat's status goes back to `ready` after a request. */
export function useTurnEnd(status: string, onEnd: (() => void) | undefined) {
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (status === "ready" && (was === "submitted" || was === "streaming")) onEnd?.();
  }, [status, onEnd]);
}
