import { useAgent } from "agents/react";
import { useState } from "react";
import { ErrorMessage } from "../ui/error-message";
import { agentOptions } from "./agent-options";
import { InstanceNameForm } from "./instance-name-form";

// The counter agent's state as the service spec defines it.
interface CounterState {
  count: number;
}

/** A shared counter: every tab on the same name sees each change as the agent broadcasts its state. */
export function CounterPanel() {
  const [name, setName] = useState("demo");
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const agent = useAgent<CounterState>({
    ...agentOptions("counter-agent", name),
    onOpen: () => setConnected(true),
    onClose: () => setConnected(false),
  });
  const count = agent.state?.count;

  async function change(method: "increment" | "decrement") {
    setPending(true);
    setError(null);
    try {
      // The new count also arrives as a state broadcast, which is what we render.
      await agent.call<number>(method);
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  }

  const ready = connected && count !== undefined;
  return (
    <section className="card counter" aria-label="Counter">
      <h2>Live counter</h2>
      <InstanceNameForm name={name} onOpen={setName} label="Instance" ariaLabel="Counter instance name" />
      <output className="count" aria-label="Count" aria-busy={!ready}>
        {count ?? "…"}
      </output>
      <div className="actions">
        <button type="button" disabled={!ready || pending} onClick={() => void change("decrement")}>
          − Decrement
        </button>
        <button type="button" disabled={!ready || pending} onClick={() => void change("increment")}>
          + Increment
        </button>
      </div>
      <p className="muted">
        {connected ? `Connected to counter-agent/${name}.` : "Connecting…"} Open this page in a second tab:
        both stay in sync.
      </p>
      <ErrorMessage error={agent.connectionError ?? error} />
    </section>
  );
}
