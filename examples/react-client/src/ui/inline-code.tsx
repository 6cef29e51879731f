/** Text whose `backticked` parts show as code (the service writes commands that way). */
export function InlineCode({ text }: { text: string }) {
  return text.split(/(`[^`]+`)/).map((part, index) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 2 ? (
      <code key={index} className="rounded bg-slate-100 px-1 font-mono text-[0.9em] text-slate-900">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}
