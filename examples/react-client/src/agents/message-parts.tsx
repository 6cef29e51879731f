import { getToolApproval, getToolPartState } from "@cloudflare/ai-chat/react";
import { getToolName, isToolUIPart, type UIMessage } from "ai";

/** Answers a tool's approval request (useAgentChat's addToolApprovalResponse). */
export type ApprovalHandler = (response: { id: string; approved: boolean }) => void;

const STATE_LABELS: Record<ReturnType<typeof getToolPartState>, string> = {
  loading: "Preparing…",
  streaming: "Preparing…",
  "waiting-approval": "Waiting for your approval",
  approved: "Approved, running…",
  complete: "Done",
  error: "Failed",
  denied: "Denied",
};

function ToolCall({ part, onApproval }: { part: UIMessage["parts"][number]; onApproval: ApprovalHandler }) {
  if (!isToolUIPart(part)) return null;
  const state = getToolPartState(part);
  const approval = getToolApproval(part);
  return (
    <div className="tool-call" data-tool={getToolName(part)} data-state={state}>
      <p>
        <strong>{getToolName(part)}</strong> <span className="muted">{STATE_LABELS[state]}</span>
      </p>
      {"input" in part && part.input !== undefined && <pre>{JSON.stringify(part.input, null, 2)}</pre>}
      {state === "error" && "errorText" in part && <p className="error">{part.errorText}</p>}
      {state === "waiting-approval" && approval && (
        <div className="actions">
          <button type="button" onClick={() => onApproval({ id: approval.id, approved: true })}>
            Approve
          </button>
          <button
            type="button"
            className="link"
            onClick={() => onApproval({ id: approval.id, approved: false })}
          >
            Deny
          </button>
        </div>
      )}
    </div>
  );
}

/** Text as it streams; reasoning folded away; tool calls with their state (and Approve / Deny when asked). */
export function MessageParts({ message, onApproval }: { message: UIMessage; onApproval: ApprovalHandler }) {
  return message.parts.map((part, index) => {
    if (part.type === "text") {
      return (
        <p key={index} className="text" data-state={part.state}>
          {part.text}
        </p>
      );
    }
    if (part.type === "reasoning") {
      return (
        <details key={index} className="reasoning" data-state={part.state}>
          <summary>{part.state === "streaming" ? "Thinking…" : "Reasoning"}</summary>
          <p>{part.text}</p>
        </details>
      );
    }
    if (isToolUIPart(part)) return <ToolCall key={index} part={part} onApproval={onApproval} />;
    // Files and sources: this service's chat does not produce them.
    return null;
  });
}
