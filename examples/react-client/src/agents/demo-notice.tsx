/** Shown while the service's offline demo model answers (its chat socket says so on connect). */
export function DemoNotice() {
  return (
    <div
      role="note"
      aria-label="Demo model"
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p>
        <strong className="font-semibold">Demo model.</strong> Answers come from a script, not from AI: try
        the chat, its todo tools and files without a model.
      </p>
      <details className="mt-1">
        <summary className="font-medium underline">Connect a real model</summary>
        <p className="mt-1">
          For Workers AI, sign in with <code className="font-mono">wrangler login</code> and start the service
          with <code className="font-mono">npm run dev:remote</code>. For an OpenAI-compatible server such as
          Ollama, set <code className="font-mono">AI_BASE_URL</code> and{" "}
          <code className="font-mono">AI_MODEL</code> in <code className="font-mono">.dev.vars</code>. The
          service's guide (docs/agents.md, "AI models") has the details.
        </p>
      </details>
    </div>
  );
}
