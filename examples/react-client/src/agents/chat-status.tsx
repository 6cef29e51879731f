import type { useAgentChat } from "@cloudflare/ai-chat/react";

type Status = ReturnType<typeof useAgentChat>["status"];

const WORDS: Record<Status, { text: string; dot: string }> = {
  ready: { text: "Ready", dot: "bg-green-600" },
  submitted: { text: "Sending…", dot: "bg-amber-500" },
  streaming: { text: "Answering…", dot: "bg-amber-500" },
  error: { text: "Something went wrong", dot: "bg-red-600" },
};

/** The chat's status in words (the service spec has the client report it). */
export function ChatStatus({ status }: { status: Status }) {
  const { text, dot } = WORDS[status];
  return (
    <p
      role="status"
      aria-label="Chat status"
      data-status={status}
      className="flex items-center gap-2 text-sm text-slate-700"
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      {text}
    </p>
  );
}
