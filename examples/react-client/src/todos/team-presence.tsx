import type { PresenceEvent } from "./use-todo-feed";

/** Which teammates have the team open now, from the feed's presence messages. */
export function TeamPresence({ online, live }: { online: PresenceEvent["online"]; live: boolean }) {
  if (!live) return null;
  return (
    <p aria-live="polite" aria-label="Teammates online" className="mb-4 text-sm break-words text-slate-700">
      <span aria-hidden className="mr-1.5 inline-block size-2 rounded-full bg-green-600 align-middle" />
      {online.length === 0
        ? "No teammates online."
        : `Online now: ${online.map((user) => user.username).join(", ")}`}
    </p>
  );
}
