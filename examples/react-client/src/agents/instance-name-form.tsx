import { useState, type ReactNode } from "react";
import { AGENT_NAME_PATTERN } from "./agent-options";

/** Picks the agent instance by name; the name is applied on submit, not on every keystroke. */
export function InstanceNameForm(props: {
  name: string;
  onOpen: (name: string) => void;
  label: string;
  ariaLabel: string;
  /** Names this form accepts (an HTML `pattern`); any name the service accepts by default. */
  pattern?: string;
  children?: ReactNode;
}) {
  const [draft, setDraft] = useState(props.name);
  return (
    <form
      className="inline"
      onSubmit={(event) => {
        event.preventDefault();
        props.onOpen(draft);
      }}
    >
      <label className="inline">
        {props.label}
        <input
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          pattern={props.pattern ?? AGENT_NAME_PATTERN}
          required
          aria-label={props.ariaLabel}
        />
      </label>
      <button type="submit">Open</button>
      {props.children}
    </form>
  );
}
