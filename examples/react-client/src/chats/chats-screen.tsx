import { useCallback, useState } from "react";
import { ChatPanel } from "../agents/chat-panel";
import type { Session } from "../auth/session";
import { AGENTS_AUTH } from "../config";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { NoteIcon } from "../ui/icons";
import { Page } from "../ui/page";
import { ChatList } from "./chat-list";
import { ChatsDrawer } from "./chats-drawer";
import { useChats, type Chat } from "./use-chats";

/**
 * The user's chats beside the open one: a new chat, switching, renaming and deleting; titles appear
 * after the first answer. Until a chat of the list is opened, this browser's own conversation shows.
 * On narrow screens the conversation comes first and the list opens as a drawer ("Chats").
 */
export function ChatsScreen({ session }: { session: Session }) {
  const { chats, error, reload, create, rename, remove, titled, setError } = useChats();
  const [openId, setOpenId] = useState<string | null>(null);
  const [drawer, setDrawer] = useState(false);
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

  // One list, beside the conversation from `lg` up and in the drawer below; picking a chat closes the drawer.
  const list = (
    <ChatList
      chats={chats}
      selectedId={openId}
      onNew={() =>
        void attempt(async () => {
          setOpenId((await create()).id);
          setDrawer(false);
        })
      }
      onOpen={(chat: Chat) => {
        setOpenId(chat.id);
        setDrawer(false);
      }}
      onRename={(id, title) => attempt(() => rename(id, title))}
      onDelete={(id) =>
        attempt(async () => {
          await remove(id);
          if (id === openId) setOpenId(null);
        })
      }
    />
  );

  return (
    <Page
      title="Chat"
      description={
        AGENTS_AUTH || open
          ? "Ask the assistant. It can read your todos and the files you attach, and changes todos only when you approve."
          : "Ask the assistant anything. Start a chat to keep it in your list, with your todos at hand."
      }
      actions={
        <Button className="lg:hidden" onClick={() => setDrawer(true)} aria-haspopup="dialog">
          <NoteIcon />
          Chats{chats && chats.length > 0 ? ` (${chats.length})` : ""}
        </Button>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)] lg:items-start">
        <div className="hidden min-w-0 lg:block">{list}</div>
        <ChatsDrawer open={drawer} onOpenChange={setDrawer}>
          {list}
        </ChatsDrawer>
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
