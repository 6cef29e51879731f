import { useCallback, useState } from "react";
import type { Session } from "../auth/session";
import { ChatPanel } from "../agents/chat-panel";
import { ErrorMessage } from "../ui/error-message";
import { ChatList } from "./chat-list";
import { useChats, type Chat } from "./use-chats";
import "./chats.css";

/**
 * The user's chats beside the open one: a new chat, switching, renaming and deleting; titles appear
 * after the first answer. Until a chat of the list is opened, the conversation by name is shown.
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
    <div className="chats">
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
      <div className="chat-main">
        {error !== null && <ErrorMessage error={error} />}
        {open ? (
          <ChatPanel key={open.id} session={session} indexed={{ chat: open, onTurnEnd, onTitle }} />
        ) : (
          <ChatPanel key="by-name" session={session} />
        )}
      </div>
    </div>
  );
}
