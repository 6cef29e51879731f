import { useState } from "react";
import { Button } from "../ui/button";
import { Field, inputClass } from "../ui/field";
import { AGENT_NAME_PATTERN } from "./agent-options";

/** Picks the agent instance by name; the name is applied on submit, not on every keystroke. */
export function InstanceNameForm(props: {
  name: string;
  onOpen: (name: string) => void;
  label: string;
  hint: string;
}) {
  const [draft, setDraft] = useState(props.name);
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        props.onOpen(draft);
      }}
    >
      <Field label={props.label} hint={props.hint} className="min-w-0 flex-1">
        <input
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          pattern={AGENT_NAME_PATTERN}
          required
          className={inputClass}
        />
      </Field>
      <Button type="submit" className="mb-6">
        Open
      </Button>
    </form>
  );
}
