import { useAgentChat } from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";
import { useState, type FormEvent } from "react";
import type { Session } from "../auth/session";
import { AGENTS_AUTH } from "../config";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { inputClass } from "../ui/field";
import { SendIcon } from "../ui/icons";
import { Card, Page } from "../ui/page";
import { agentHeaders, agentOptions, defaultChatName } from "./agent-options";
import { ChatStatus } from "./chat-status";
import { isVisiblePart, MessageParts } from "./message-parts";

// In your own conversation (sign-in on for agents) the assistant has your todos as tools.
const SUGGESTIONS = AGENTS_AUTH
  ? ["What's on my list?", "Add a todo: water the plants on Friday", "Which of my todos are done?"]
  : [
      "What can you help me with?",
      "Explain Durable Objects in two sentences",
      "Write a haiku about todo lists",
    ];

/** Chat with the service's ChatAgent over WebSocket; answers stream in as Markdown. */
export function ChatPanel({ session }: { session: Session }) {
  const [name] = useState(() => defaultChatName(session.userId));
  const [input, setInput] = useState("");
  const [clearing, setClearing] = useState(false);

  const agent = useAgent(agentOptions("chat-agent", name));
  const { messages, sendMessage, status, stop, error, clearError, clearHistory, addToolApprovalResponse } =
    useAgentChat({ agent, headers: agentHeaders() });

  function send(text: string) {
    if (!text.trim() || status !== "ready") return;
    setInput("");
    void sendMessage({ text: text.trim() });
  }

  const busy = status === "submitted" || status === "streaming";
  const shown = messages.filter((message) => message.role === "user" || message.parts.some(isVisiblePart));
  return (
    <Page
      title="Chat"
      description={
        AGENTS_AUTH
          ? "Ask the assistant. It can read your todos, and changes them only when you approve."
          : "Ask the assistant anything."
      }
      actions={
        <Button onClick={() => setClearing(true)} disabled={busy || messages.length === 0}>
          Clear conversation…
        </Button>
      }
    >
      <Card className="flex flex-col gap-4">
        <ChatStatus status={status} />
        {shown.length === 0 ? (
          <div className="py-6 text-center">
            <p className="font-medium text-slate-800">Start with one of these, or ask your own question.</p>
            <ul aria-label="Suggestions" className="mt-4 flex flex-wrap justify-center gap-2">
              {SUGGESTIONS.map((text) => (
                <li key={text}>
                  <Button size="sm" disabled={status !== "ready"} onClick={() => send(text)}>
                    {text}
                  </Button>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <ol aria-label="Messages" className="flex flex-col gap-3">
            {shown.map((message) => {
              // Reminders of todos are pushed by the service into the user's own conversation.
              const reminder =
                (message.metadata as { reminder?: unknown } | undefined)?.reminder !== undefined;
              const role = reminder ? "reminder" : message.role;
              const look = {
                user: "self-end bg-orange-50 border-orange-200",
                assistant: "self-start bg-white border-slate-200",
                reminder: "self-start bg-amber-50 border-amber-300",
                system: "self-start bg-white border-slate-200",
              }[role];
              return (
                <li
                  key={message.id}
                  data-role={role}
                  className={`message max-w-[min(100%,42rem)] min-w-0 rounded-2xl border px-4 py-2 break-words ${look}`}
                >
                  <span className="sr-only">
                    {role === "user" ? "You:" : role === "reminder" ? "Reminder:" : "Assistant:"}
                  </span>
                  {reminder && <p className="text-xs font-semibold text-amber-900 uppercase">Reminder</p>}
                  <MessageParts message={message} onApproval={addToolApprovalResponse} />
                </li>
              );
            })}
          </ol>
        )}
        {error && (
          <div className="flex flex-wrap items-start gap-2">
            <ErrorMessage error={error} className="min-w-0 flex-1" />
            <Button size="sm" variant="ghost" onClick={clearError}>
              Dismiss
            </Button>
          </div>
        )}
        <form
          className="flex gap-2"
          aria-label="Send a message"
          onSubmit={(event: FormEvent<HTMLFormElement>) => {
            event.preventDefault();
            send(input);
          }}
        >
          <input
            value={input}
            onChange={(event) => setInput(event.currentTarget.value)}
            placeholder="Ask something…"
            aria-label="Message"
            className={`${inputClass} flex-1`}
          />
          {busy && <Button onClick={() => void stop()}>Stop</Button>}
          {/* Send is enabled only when the chat status is `ready` (the service spec). */}
          <Button
            type="submit"
            variant="primary"
            disabled={status !== "ready" || !input.trim()}
            aria-label="Send"
          >
            <SendIcon />
            <span className="hidden sm:inline">Send</span>
          </Button>
        </form>
      </Card>
      <ConfirmDialog
        open={clearing}
        onOpenChange={setClearing}
        title="Clear this conversation?"
        description={<p>Its messages are deleted for good.</p>}
        confirmLabel="Clear conversation"
        onConfirm={() => clearHistory()}
      />
    </Page>
  );
}
