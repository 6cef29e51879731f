import { useRef, useState } from "react";
import { uploadFile, type UploadResult } from "../api/upload";
import { ErrorMessage } from "../ui/error-message";

/** Picks a file, uploads it with a progress bar, and hands the stored object's key to the caller. */
export function FileUpload({
  onUploaded,
  label = "Attach a file",
}: {
  onUploaded: (result: UploadResult, file: File) => void | Promise<void>;
  label?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reconnecting, setReconnecting] = useState(false);

  async function upload(file: File) {
    setError(null);
    setProgress(0);
    try {
      const result = await uploadFile(file, {
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

  return (
    <div className="upload">
      <label>
        {label}
        <input
          ref={input}
          type="file"
          disabled={progress !== null}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void upload(file);
          }}
        />
      </label>
      {progress !== null && (
        <progress max={1} value={progress} aria-label="Upload progress">
          {Math.round(progress * 100)}%
        </progress>
      )}
      {reconnecting && <p role="status">Connection lost: resuming the upload when it is back…</p>}
      <ErrorMessage error={error} />
    </div>
  );
}
