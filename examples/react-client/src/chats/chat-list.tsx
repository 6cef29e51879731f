import { useState } from "react";
import { formatDate } from "../ui/format";
import type { Chat } from "./use-chats";

const UNTITLED = "New chat";

/** One row: the chat's title and preview, opened on click; rename in place, delete after a confirm. */
function ChatRow(props: {
  chat: Chat;
  selected: boolean;
  onOpen: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const { chat } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const title = chat.title ?? UNTITLED;

  if (draft !== null) {
    return (
      <li className="chat-row selected" data-chat={chat.id}>
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault();
            void props.onRename(draft.trim()).then(() => setDraft(null));
          }}
        >
          <input
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={80}
            required
            pattern=".*\S.*"
            aria-label="Chat title"
            autoFocus
          />
          <button type="submit">Save</button>
          <button type="button" className="link" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </form>
      </li>
    );
  }
  return (
    <li className={`chat-row${props.selected ? " selected" : ""}`} data-chat={chat.id}>
      <button
        type="button"
        className="chat-open link"
        aria-current={props.selected ? "true" : undefined}
        onClick={props.onOpen}
      >
        <span className={`chat-title${chat.title === null ? " untitled" : ""}`}>{title}</span>
        <span className="muted chat-preview">{chat.preview ?? "No messages yet"}</span>
        <span className="muted">{formatDate(chat.lastActivityAt)}</span>
      </button>
      <span className="chat-actions">
        <button type="button" className="link" aria-label={`Rename ${title}`} onClick={() => setDraft(title)}>
          Rename
        </button>
        <button
          type="button"
          className="link"
          aria-label={`Delete ${title}`}
          onClick={() => {
            if (confirm(`Delete "${title}" and all its messages?`)) void props.onDelete();
          }}
        >
          Delete
        </button>
      </span>
    </li>
  );
}

/** The user's chats, most recent first, with a button for a new one. */
export function ChatList(props: {
  chats: Chat[] | null;
  selectedId: string | null;
  onNew: () => void;
  onOpen: (chat: Chat) => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}) {
  return (
    <nav className="card chat-list" aria-label="Your chats">
      <header>
        <h2>Chats</h2>
        <button type="button" onClick={props.onNew}>
          New chat
        </button>
      </header>
      {props.chats === null ? (
        <p className="muted">Loading…</p>
      ) : props.chats.length === 0 ? (
        <p className="muted">No chats yet: start one.</p>
      ) : (
        <ul>
          {props.chats.map((chat) => (
            <ChatRow
              key={chat.id}
              chat={chat}
              selected={chat.id === props.selectedId}
              onOpen={() => props.onOpen(chat)}
              onRename={(title) => props.onRename(chat.id, title)}
              onDelete={() => props.onDelete(chat.id)}
            />
          ))}
        </ul>
      )}
    </nav>
  );
}
