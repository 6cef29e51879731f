import { useCallback, useState } from "react";
import { ChatPanel } from "../agents/chat-panel";
import type { Session } from "../auth/session";
import { AGENTS_AUTH } from "../config";
import { ErrorMessage } from "../ui/error-message";
import { Page } from "../ui/page";
import { ChatList } from "./chat-list";
import { useChats, type Chat } from "./use-chats";

/**
 * The user's chats beside the open one: a new chat, switching, renaming and deleting; titles appear
 * after the first answer. Until a chat of the list is opened, this browser's own conversation shows.
 */
export function ChatsScreen({ session }: { session: Session }) {
  const { chats, error, reload, create, rename, remove, titled, setError } = useChats();
  const [openId, setOpenId] = useState<string | null>(null);
  const open = chats?.find((chat) => chat.id === openId) ?? null;

  const attempt = useCallback(
    async (action: () => Promise<unknown>) => {
      try {
        await action();
      } catch (err) {
        setError(err);
      }
    },
    [setError],
  );
  const onTurnEnd = useCallback(() => void reload(), [reload]);
  const onTitle = useCallback(
    (title: string) => {
      if (openId) titled(openId, title);
    },
    [openId, titled],
  );

  return (
    <Page
      title="Chat"
      description={
        AGENTS_AUTH || open
          ? "Ask the assistant. It can read your todos and the files you attach, and changes todos only when you approve."
          : "Ask the assistant anything. Start a chat to keep it in your list, with your todos at hand."
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)] lg:items-start">
        <ChatList
          chats={chats}
          selectedId={openId}
          onNew={() => void attempt(async () => setOpenId((await create()).id))}
          onOpen={(chat: Chat) => setOpenId(chat.id)}
          onRename={(id, title) => attempt(() => rename(id, title))}
          onDelete={(id) =>
            attempt(async () => {
              await remove(id);
              if (id === openId) setOpenId(null);
            })
          }
        />
        <div className="min-w-0 space-y-4">
          <ErrorMessage error={error} />
          {open ? (
            <ChatPanel key={open.id} session={session} indexed={{ chat: open, onTurnEnd, onTitle }} />
          ) : (
            <ChatPanel key="by-name" session={session} />
          )}
        </div>
      </div>
    </Page>
  );
}
