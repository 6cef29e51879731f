import type { FileUIPart } from "ai";
import { CloseIcon, PaperclipIcon } from "../ui/icons";

/**
 * A file attached to a chat message, by reference: the service's download path of one of your files,
 * which the chat reads on each turn as you (README, "Files in a chat"). Relative, so it names this
 * service wherever the client runs.
 */
export function fileReference(file: { key: string; originalName: string; contentType: string }): FileUIPart {
  return {
    type: "file",
    mediaType: file.contentType,
    filename: file.originalName,
    url: `/api/download/${encodeURIComponent(file.key)}`,
  };
}

/** A file part as a chip: its name (a `data:` URL's, or the key's when it has none); removable while pending. */
export function FileChip({ part, onRemove }: { part: FileUIPart; onRemove?: () => void }) {
  const name = part.filename ?? decodeURIComponent(part.url.split("/").pop() ?? "file");
  return (
    <span
      className="file-chip inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-full border border-slate-300 bg-white py-1 pr-1 pl-2.5 text-sm text-slate-800"
      title={part.mediaType}
    >
      <PaperclipIcon />
      <span className="min-w-0 truncate">{name}</span>
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove ${name}`}
          className="rounded-full p-0.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <CloseIcon />
        </button>
      ) : (
        <span className="pr-1.5" />
      )}
    </span>
  );
}
