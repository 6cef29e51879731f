import { useRef, useState, type DragEvent } from "react";
import { uploadFile, type UploadOptions, type UploadResult } from "../api/upload";
import { ErrorMessage } from "../ui/error-message";
import { Field } from "../ui/field";

/** True when a drag carries files (not text or a link dragged from the page). */
const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes("Files") ?? false;

/**
 * Picks a file (the file input, or a file dropped on this area), uploads it with a progress bar, and
 * hands the stored object's key to the caller. The input stays: keyboards and screen readers use it.
 */
export function FileUpload({
  onUploaded,
  label = "Attach a file",
  visibility,
  orgId = null,
}: {
  onUploaded: (result: UploadResult, file: File) => void | Promise<void>;
  label?: string;
  visibility?: UploadOptions["visibility"];
  /** The team the file is for; yours when null. */
  orgId?: number | null;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reconnecting, setReconnecting] = useState(false);
  const [dragging, setDragging] = useState(false);
  const busy = progress !== null;

  async function upload(file: File) {
    setError(null);
    setProgress(0);
    try {
      const result = await uploadFile(file, {
        visibility,
        ...(orgId === null ? {} : { orgId }),
        onProgress: (fraction) => {
          setReconnecting(false);
          setProgress(fraction);
        },
        onRetry: () => setReconnecting(true),
      });
      await onUploaded(result, file);
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
      setReconnecting(false);
      if (input.current) input.current.value = "";
    }
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) void upload(file);
  }

  return (
    <div
      data-testid="drop-zone"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        // Without preventDefault the browser opens the file instead of letting it drop here.
        event.preventDefault();
        event.dataTransfer.dropEffect = busy ? "none" : "copy";
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={drop}
      className={`space-y-2 rounded-lg border-2 border-dashed p-3 transition-colors ${
        dragging ? "border-orange-700 bg-orange-50" : "border-slate-300"
      }`}
    >
      <Field label={label} hint={dragging ? "Drop it to upload." : "Or drop a file here."}>
        <input
          ref={input}
          type="file"
          disabled={busy}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void upload(file);
          }}
          className="block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:min-h-10 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-100"
        />
      </Field>
      {progress !== null && (
        <progress
          max={1}
          value={progress}
          aria-label="Upload progress"
          className="h-2 w-full overflow-hidden rounded-full accent-orange-700"
        >
          {Math.round(progress * 100)}%
        </progress>
      )}
      {reconnecting && (
        <p role="status" className="text-sm text-amber-900">
          Connection lost: the upload goes on when it is back…
        </p>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
