import type { UIMessage } from "ai";

/** Text as it streams; reasoning folded away (open it to read the model's thinking). */
export function MessageParts({ message }: { message: UIMessage }) {
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
    // Tool calls, files and sources: this service's chat does not produce them.
    return null;
  });
}
