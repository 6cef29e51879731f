import { useState } from "react";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { inputClass } from "../ui/field";
import { fromNow } from "../ui/format";
import { MoreIcon } from "../ui/icons";
import { Menu } from "../ui/menu";
import { plainPreview } from "./plain-preview";
import type { Chat } from "./use-chats";

const UNTITLED = "New chat";

/** One row: the chat's title and preview, opened on click; a menu to rename it in place or delete it. */
function ChatRow(props: {
  chat: Chat;
  selected: boolean;
  onOpen: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const { chat } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const title = chat.title ?? UNTITLED;

  if (draft !== null) {
    return (
      <li className="chat-row py-2" data-chat={chat.id}>
        <form
          className="flex flex-wrap gap-2"
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
            className={`${inputClass} min-w-0 flex-1`}
          />
          <Button type="submit" size="sm" variant="primary">
            Save
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </form>
      </li>
    );
  }
  return (
    <li
      className={`chat-row flex items-start gap-1 rounded-lg px-2 py-2 ${props.selected ? "bg-orange-50" : "hover:bg-slate-50"}`}
      data-chat={chat.id}
    >
      <button
        type="button"
        className="min-w-0 flex-1 text-left"
        aria-current={props.selected ? "true" : undefined}
        onClick={props.onOpen}
      >
        <span
          className={`chat-title block truncate font-medium ${chat.title === null ? "text-slate-600 italic" : "text-slate-900"}`}
        >
          {title}
        </span>
        <span className="chat-preview block truncate text-sm text-slate-600">
          {chat.preview ? plainPreview(chat.preview) : "No messages yet"}
        </span>
        <span className="block text-xs text-slate-600">{fromNow(chat.lastActivityAt)}</span>
      </button>
      <Menu
        trigger={
          <Button variant="ghost" size="sm" aria-label={`Actions for ${title}`}>
            <MoreIcon />
          </Button>
        }
        items={[
          { label: "Rename…", onSelect: () => setDraft(title) },
          { label: "Delete…", onSelect: () => setDeleting(true), danger: true },
        ]}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete “${title}”?`}
        description={<p>The chat and all its messages are deleted for good.</p>}
        confirmLabel="Delete chat"
        onConfirm={props.onDelete}
      />
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
    <nav
      aria-label="Your chats"
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm lg:max-h-[calc(100dvh-12rem)] lg:overflow-y-auto"
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">Chats</h2>
        <Button size="sm" variant="primary" onClick={props.onNew}>
          New chat
        </Button>
      </div>
      {props.chats === null ? (
        <p className="text-sm text-slate-600">Loading chats…</p>
      ) : props.chats.length === 0 ? (
        <p className="text-sm text-slate-600">No chats yet: start one.</p>
      ) : (
        <ul className="space-y-1">
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
