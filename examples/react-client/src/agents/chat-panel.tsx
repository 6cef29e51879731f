import { useAgentChat } from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";
import type { FileUIPart } from "ai";
import { useState, type FormEvent } from "react";
import type { Session } from "../auth/session";
import { chatTitle, isDemoNotice, useTurnEnd } from "../chats/chat-events";
import { AGENTS_AUTH } from "../config";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { PaperclipIcon, SendIcon } from "../ui/icons";
import { Card } from "../ui/page";
import { agentHeaders, agentOptions, defaultChatName } from "./agent-options";
import { AttachDialog } from "./attach-dialog";
import { ChatStatus } from "./chat-status";
import { DemoNotice } from "./demo-notice";
import { FileChip, fileReference } from "./file-chip";
import { MessageBox } from "./message-box";
import { isVisiblePart, MessageParts } from "./message-parts";

/** What the chats screen (src/chats/chats-screen.tsx) hands a chat of the index. */
export interface IndexedChat {
  chat: { id: string; title: string | null };
  /** After each turn: the list's previews, order and titles move. */
  onTurnEnd: () => void;
  /** The title the first exchange gave the chat, as its socket announces it. */
  onTitle: (title: string) => void;
}

// With your todos as tools (a chat of the index, or your own conversation with sign-in on), or without.
const TODO_PROMPTS = [
  "What's on my list?",
  "Add a todo: water the plants on Friday",
  "Which of my todos are done?",
];
// The service reads at most this many files of one message.
const MAX_FILES = 4;
const GENERAL_PROMPTS = [
  "What can you help me with?",
  "Explain Durable Objects in two sentences",
  "Write a haiku about todo lists",
];

/**
 * Chat with the service's ChatAgent over WebSocket; answers stream in as Markdown. A chat of the index
 * is opened by its id; otherwise this browser's own conversation (`user-<id>` with sign-in on).
 */
export function ChatPanel({ session, indexed }: { session: Session; indexed?: IndexedChat }) {
  const [byName] = useState(() => defaultChatName(session.userId));
  const name = indexed?.chat.id ?? byName;
  const [input, setInput] = useState("");
  const [clearing, setClearing] = useState(false);
  const [files, setFiles] = useState<FileUIPart[]>([]);
  const [attaching, setAttaching] = useState(false);
  const [demo, setDemo] = useState(false);
  // Only a chat with an owner reads files (and has the todo tools): public chats by name refuse them.
  const owned = indexed !== undefined || AGENTS_AUTH;

  const agent = useAgent({
    ...agentOptions("chat-agent", name),
    onMessage: (event: MessageEvent) => {
      if (isDemoNotice(event.data)) setDemo(true);
      const title = chatTitle(event.data);
      if (title !== null) indexed?.onTitle(title);
    },
  });
  const { messages, sendMessage, status, stop, error, clearError, clearHistory, addToolApprovalResponse } =
    useAgentChat({ agent, headers: agentHeaders(name) });
  useTurnEnd(status, indexed?.onTurnEnd);

  function send(text: string) {
    if ((!text.trim() && files.length === 0) || status !== "ready") return;
    setInput("");
    setFiles([]);
    void sendMessage(files.length > 0 ? { text: text.trim(), files } : { text: text.trim() });
  }

  const busy = status === "submitted" || status === "streaming";
  const shown = messages.filter((message) => message.role === "user" || message.parts.some(isVisiblePart));
  const suggestions = owned ? TODO_PROMPTS : GENERAL_PROMPTS;
  return (
    <Card
      title={indexed ? (indexed.chat.title ?? "New chat") : "Your conversation"}
      actions={
        <Button size="sm" onClick={() => setClearing(true)} disabled={busy || messages.length === 0}>
          Clear…
        </Button>
      }
      className="flex flex-col gap-4"
    >
      <ChatStatus status={status} />
      {demo && <DemoNotice />}
      {shown.length === 0 ? (
        <div className="py-6 text-center">
          <p className="font-medium text-slate-800">Start with one of these, or ask your own question.</p>
          <ul aria-label="Suggestions" className="mt-4 flex flex-wrap justify-center gap-2">
            {suggestions.map((text) => (
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
            const reminder = (message.metadata as { reminder?: unknown } | undefined)?.reminder !== undefined;
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
      {files.length > 0 && (
        <ul aria-label="Files to send" className="flex flex-wrap gap-2">
          {files.map((file, index) => (
            <li key={file.url} className="min-w-0">
              <FileChip part={file} onRemove={() => setFiles(files.filter((_, i) => i !== index))} />
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex items-end gap-2"
        aria-label="Send a message"
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          send(input);
        }}
      >
        {owned && (
          <Button
            onClick={() => setAttaching(true)}
            disabled={files.length >= MAX_FILES}
            aria-label="Attach a file"
            title={files.length >= MAX_FILES ? `At most ${MAX_FILES} files a message` : "Attach a file"}
          >
            <PaperclipIcon />
          </Button>
        )}
        <MessageBox value={input} onChange={setInput} onSend={() => send(input)} />
        {busy && <Button onClick={() => void stop()}>Stop</Button>}
        {/* Send is enabled only when the chat status is `ready` (the service spec). */}
        <Button
          type="submit"
          variant="primary"
          disabled={status !== "ready" || (!input.trim() && files.length === 0)}
          aria-label="Send"
        >
          <SendIcon />
          <span className="hidden sm:inline">Send</span>
        </Button>
      </form>
      {owned && (
        <AttachDialog
          open={attaching}
          onOpenChange={setAttaching}
          onPick={(file) => {
            const part = fileReference(file);
            setFiles((pending) => (pending.some((p) => p.url === part.url) ? pending : [...pending, part]));
          }}
        />
      )}
      <ConfirmDialog
        open={clearing}
        onOpenChange={setClearing}
        title="Clear this conversation?"
        description={<p>Its messages are deleted for good.</p>}
        confirmLabel="Clear conversation"
        onConfirm={() => clearHistory()}
      />
    </Card>
  );
}
