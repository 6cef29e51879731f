import { useAgentChat } from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";
import { useState, type FormEvent } from "react";
import { chatTitle, useTurnEnd } from "../chats/chat-events";
import type { Session } from "../auth/session";
import { ErrorMessage } from "../ui/error-message";
import { agentHeaders, agentOptions, chatNamePattern, defaultChatName } from "./agent-options";
import { InstanceNameForm } from "./instance-name-form";
import { MessageParts } from "./message-parts";

/** What the chats screen (src/chats/chats-screen.tsx) hands a chat of the index. */
export interface IndexedChat {
  chat: { id: string; title: string | null };
  /** After each turn: the list's previews, order and titles move. */
  onTurnEnd: () => void;
  /** The title the first exchange gave the chat, as its socket announces it. */
  onTitle: (title: string) => void;
}

/**
 * Chat with the service's ChatAgent over WebSocket; answers stream in part by part. A chat of the index
 * is opened by its id; otherwise a conversation by name (the form in the header picks it).
 */
export function ChatPanel({ session, indexed }: { session: Session; indexed?: IndexedChat }) {
  const [byName, setByName] = useState(() => defaultChatName(session.userId));
  const name = indexed?.chat.id ?? byName;
  const [input, setInput] = useState("");

  const agent = useAgent({
    ...agentOptions("chat-agent", name),
    onMessage: (event: MessageEvent) => {
      const title = chatTitle(event.data);
      if (title !== null) indexed?.onTitle(title);
    },
  });
  const { messages, sendMessage, status, stop, error, clearError, clearHistory, addToolApprovalResponse } =
    useAgentChat({
      agent,
      headers: agentHeaders(name),
    });
  useTurnEnd(status, indexed?.onTurnEnd);

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = input.trim();
    if (!text || status !== "ready") return;
    setInput("");
    void sendMessage({ text });
  }

  const busy = status === "submitted" || status === "streaming";
  return (
    <section className="card chat" aria-label="Chat">
      <header>
        <h2>{indexed ? (indexed.chat.title ?? "New chat") : "Chat"}</h2>
        {indexed ? (
          <button type="button" className="link" disabled={busy} onClick={clearHistory}>
            Clear history
          </button>
        ) : (
          <InstanceNameForm
            name={byName}
            onOpen={setByName}
            label="Conversation"
            ariaLabel="Conversation name"
            pattern={chatNamePattern(session.userId)}
          >
            <button type="button" className="link" disabled={busy} onClick={clearHistory}>
              Clear history
            </button>
          </InstanceNameForm>
        )}
      </header>
      <ol className="messages" aria-live="polite">
        {messages.map((message) => {
          // Reminders of todos are pushed by the service into the user's own conversation.
          const reminder = (message.metadata as { reminder?: unknown } | undefined)?.reminder !== undefined;
          return (
            <li
              key={message.id}
              className={`message ${message.role}${reminder ? " reminder" : ""}`}
              data-role={reminder ? "reminder" : message.role}
            >
              <span className="role">
                {message.role === "user" ? "You" : reminder ? "Reminder" : "Assistant"}
              </span>
              <MessageParts message={message} onApproval={addToolApprovalResponse} />
            </li>
          );
        })}
      </ol>
      {error && (
        <div className="chat-error">
          <ErrorMessage error={error} />
          <button type="button" className="link" onClick={clearError}>
            Dismiss
          </button>
        </div>
      )}
      <form className="composer" onSubmit={send} aria-label="Send a message">
        <input
          value={input}
          onChange={(event) => setInput(event.currentTarget.value)}
          placeholder="Ask something…"
          aria-label="Message"
        />
        {/* The send control is enabled only when the chat status is `ready`. */}
        <button type="submit" disabled={status !== "ready" || !input.trim()}>
          Send
        </button>
        <button type="button" disabled={!busy} onClick={() => void stop()}>
          Stop
        </button>
      </form>
      <p className="muted" aria-label="Chat status">
        Status: {status}
      </p>
    </section>
  );
}
