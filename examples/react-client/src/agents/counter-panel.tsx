import { useAgent } from "agents/react";
import { useState } from "react";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Badge, Card, Page } from "../ui/page";
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
    <Page
      title="Counter"
      description="A number kept by a Durable Object. Open this page in a second tab: both stay in step."
    >
      <Card className="space-y-6">
        <InstanceNameForm
          name={name}
          onOpen={setName}
          label="Counter name"
          hint="Every tab that opens the same name shares one count."
        />
        <div className="flex flex-col items-center gap-4 py-4">
          <p role="status" aria-live="polite" className="text-sm">
            {connected ? <Badge tone="success">Connected to “{name}”</Badge> : <Badge>Connecting…</Badge>}
          </p>
          <output
            aria-label="Count"
            aria-busy={!ready}
            className="text-6xl font-semibold tabular-nums text-slate-900"
          >
            {count ?? "…"}
          </output>
          <div className="flex gap-3">
            <Button disabled={!ready || pending} onClick={() => void change("decrement")}>
              − Decrement
            </Button>
            <Button variant="primary" disabled={!ready || pending} onClick={() => void change("increment")}>
              + Increment
            </Button>
          </div>
        </div>
        <ErrorMessage error={agent.connectionError ?? error} />
      </Card>
    </Page>
  );
}
