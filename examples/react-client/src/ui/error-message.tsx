import { humanError } from "../api/human-error";
import { InlineCode } from "./inline-code";

/**
 * A failure in plain words where the action happened. The service's own message (what a developer
 * needs) is one click away under Details; the API client also logs it to the console.
 */
export function ErrorMessage({
  error,
  fields,
  className = "",
}: {
  error: unknown;
  /** Field names as this form calls them, for validation messages. */
  fields?: Record<string, string>;
  className?: string;
}) {
  if (!error) return null;
  const { message, detail } = humanError(error, fields);
  return (
    <div
      role="alert"
      className={`rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 ${className}`}
    >
      <p>
        <InlineCode text={message} />
      </p>
      {detail && detail !== message && (
        <details className="mt-1 text-red-800">
          <summary className="text-xs underline">Details</summary>
          <p className="mt-1 font-mono text-xs break-words">
            <InlineCode text={detail} />
          </p>
        </details>
      )}
    </div>
  );
}
