import { useAgentChat } from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";
import { useState, type FormEvent } from "react";
import type { Session } from "../auth/session";
import { ErrorMessage } from "../ui/error-message";
import { agentHeaders, agentOptions, chatNamePattern, defaultChatName } from "./agent-options";
import { InstanceNameForm } from "./instance-name-form";
import { MessageParts } from "./message-parts";

/** Chat with the service's ChatAgent over WebSocket; answers stream in part by part. */
export function ChatPanel({ session }: { session: Session }) {
  const [name, setName] = useState(() => defaultChatName(session.userId));
  const [input, setInput] = useState("");

  const agent = useAgent(agentOptions("chat-agent", name));
  const { messages, sendMessage, status, stop, error, clearError, clearHistory, addToolApprovalResponse } =
    useAgentChat({
      agent,
      headers: agentHeaders(),
    });

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
        <h2>Chat</h2>
        <InstanceNameForm
          name={name}
          onOpen={setName}
          label="Conversation"
          ariaLabel="Conversation name"
          pattern={chatNamePattern(session.userId)}
        >
          <button type="button" className="link" disabled={busy} onClick={clearHistory}>
            Clear history
          </button>
        </InstanceNameForm>
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
