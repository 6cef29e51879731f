import { getToolApproval, getToolPartState } from "@cloudflare/ai-chat/react";
import { getToolName, isToolUIPart, type UIMessage } from "ai";
import { Button } from "../ui/button";
import { FileChip } from "./file-chip";
import { MarkdownText } from "./markdown";

/** Answers a tool's approval request (useAgentChat's addToolApprovalResponse). */
export type ApprovalHandler = (response: { id: string; approved: boolean }) => void;

type Part = UIMessage["parts"][number];

const STATE_LABELS: Record<ReturnType<typeof getToolPartState>, string> = {
  loading: "Preparing…",
  streaming: "Preparing…",
  "waiting-approval": "Waiting for your approval",
  approved: "Approved, running…",
  complete: "Done",
  error: "Failed",
  denied: "Denied",
};

// What the chat's todo tools do, as the approval question says it.
const TOOL_LABELS: Record<string, string> = {
  listTodos: "List your todos",
  searchTodos: "Search your todos",
  getTodo: "Read a todo",
  listAttachments: "List a todo's files",
  listFiles: "List your files",
  readFile: "Read a file",
  createTodo: "Create a todo",
  updateTodo: "Change a todo",
  completeTodo: "Complete a todo",
  deleteTodo: "Delete a todo",
};

function ToolCall({ part, onApproval }: { part: Part; onApproval: ApprovalHandler }) {
  if (!isToolUIPart(part)) return null;
  const state = getToolPartState(part);
  const approval = getToolApproval(part);
  const name = getToolName(part);
  return (
    <div
      className="tool-call my-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm"
      data-tool={name}
      data-state={state}
    >
      <p className="flex flex-wrap items-center gap-2">
        <strong className="font-semibold text-slate-900">{TOOL_LABELS[name] ?? name}</strong>
        <span className="text-slate-600">{STATE_LABELS[state]}</span>
      </p>
      {"input" in part && part.input !== undefined && (
        <pre className="mt-2 overflow-x-auto rounded bg-white p-2 font-mono text-xs text-slate-800">
          {JSON.stringify(part.input, null, 2)}
        </pre>
      )}
      {state === "error" && "errorText" in part && <p className="mt-2 text-red-800">{part.errorText}</p>}
      {state === "waiting-approval" && approval && (
        <div className="mt-3 flex gap-2">
          <Button size="sm" variant="primary" onClick={() => onApproval({ id: approval.id, approved: true })}>
            Approve
          </Button>
          <Button size="sm" onClick={() => onApproval({ id: approval.id, approved: false })}>
            Deny
          </Button>
        </div>
      )}
    </div>
  );
}

/** Whether a part shows anything: an assistant message of empty parts (a failed turn) is not drawn. */
export function isVisiblePart(part: Part): boolean {
  if (part.type === "text" || part.type === "reasoning") return part.text.trim() !== "";
  return part.type === "file" || isToolUIPart(part);
}

/** Text as Markdown while it streams; reasoning folded away; tool calls with their state and approval. */
function PartView({
  part,
  role,
  onApproval,
}: {
  part: Part;
  role: UIMessage["role"];
  onApproval: ApprovalHandler;
}) {
  if (part.type === "text") {
    return (
      <div className="text" data-state={part.state}>
        {role === "user" ? (
          <p className="whitespace-pre-wrap">{part.text}</p>
        ) : (
          <MarkdownText text={part.text} />
        )}
      </div>
    );
  }
  if (part.type === "reasoning") {
    return (
      <details className="reasoning my-1 text-sm text-slate-600" data-state={part.state}>
        <summary className="font-medium">{part.state === "streaming" ? "Thinking…" : "Reasoning"}</summary>
        <p className="mt-1 whitespace-pre-wrap">{part.text}</p>
      </details>
    );
  }
  return <ToolCall part={part} onApproval={onApproval} />;
}

/** A message's parts: its attached files as a row of chips first, then the rest in order. */
export function MessageParts({ message, onApproval }: { message: UIMessage; onApproval: ApprovalHandler }) {
  const visible = message.parts.filter(isVisiblePart);
  const files = visible.filter((part) => part.type === "file");
  return (
    <>
      {files.length > 0 && (
        <ul aria-label="Attached files" className="my-1 flex flex-wrap gap-2">
          {files.map((file, index) => (
            <li key={index} className="min-w-0">
              <FileChip part={file} />
            </li>
          ))}
        </ul>
      )}
      {visible.map((part, index) =>
        part.type === "file" ? null : (
          <PartView key={index} part={part} role={message.role} onApproval={onApproval} />
        ),
      )}
    </>
  );
}
