import { useEffect, useState } from "react";
import { api, ApiError, downloadUrl, unwrap } from "../api/client";
import { FileUpload } from "../todos/file-upload";
import { ErrorMessage } from "../ui/error-message";
import { formatBytes, formatDate } from "../ui/format";
import type { components } from "../api/schema";

type FileRecord = components["schemas"]["FileRecord"];
type Usage = components["schemas"]["StorageUsage"];

const PAGE_SIZE = 20;

/** A delete the service refused because todos use the file: its message, and the way to go on. */
interface Attached {
  key: string;
  message: string;
}

/** The signed-in user's files, newest first, with their storage usage, an upload and delete. */
export function FilesScreen() {
  const [files, setFiles] = useState<FileRecord[]>([]);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attached, setAttached] = useState<Attached | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // Bumped after every change, so the first page loads again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    unwrap(api.GET("/api/files", { params: { query: { limit: PAGE_SIZE } } })).then(
      (page) => {
        if (!current) return;
        setFiles(page.items);
        setUsage(page.usage);
        setNextCursor(page.nextCursor);
      },
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, [version]);

  async function loadMore() {
    if (!nextCursor) return;
    try {
      const page = await unwrap(
        api.GET("/api/files", { params: { query: { limit: PAGE_SIZE, cursor: nextCursor } } }),
      );
      // Keyset paging: files uploaded meanwhile are not on the next page, so nothing repeats.
      setFiles((shown) => [...shown, ...page.items]);
      setUsage(page.usage);
      setNextCursor(page.nextCursor);
    } catch (err) {
      setError(err);
    }
  }

  async function remove(key: string, detach: boolean) {
    setBusy(key);
    setError(null);
    setAttached(null);
    try {
      await unwrap(
        api.POST("/api/files/{key}/delete", {
          params: { path: { key }, query: detach ? { detach: "true" } : {} },
        }),
      );
      setVersion((v) => v + 1);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setAttached({ key, message: err.message });
      else setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card files" aria-label="My files">
      <header>
        <h2>My files</h2>
        {usage && (
          <span className="usage">
            <progress
              max={usage.quotaBytes}
              value={usage.bytes + usage.reservedBytes}
              aria-label="Storage used"
            />
            {formatBytes(usage.bytes)} of {formatBytes(usage.quotaBytes)} · {usage.files}{" "}
            {usage.files === 1 ? "file" : "files"}
          </span>
        )}
      </header>
      <FileUpload label="Upload a file" onUploaded={() => setVersion((v) => v + 1)} />
      <ErrorMessage error={error} />
      {files.length === 0 && usage && <p className="muted">No files yet.</p>}
      <ul className="file-list" aria-label="Files">
        {files.map((file) => (
          <li key={file.key}>
            {/* A private file downloads only with the token, which a plain link cannot send. */}
            {file.visibility === "public" ? (
              <a href={downloadUrl(file.key)} download={file.originalName}>
                {file.originalName}
              </a>
            ) : (
              <span>{file.originalName} (private)</span>
            )}{" "}
            <span className="muted">
              {formatBytes(file.size)} · {formatDate(file.createdAt)}
            </span>
            <button
              type="button"
              className="link"
              aria-label={`Delete ${file.originalName}`}
              disabled={busy !== null}
              onClick={() => void remove(file.key, false)}
            >
              delete
            </button>
            {attached?.key === file.key && (
              <div role="alert" className="error">
                {attached.message}{" "}
                <button type="button" className="danger" onClick={() => void remove(file.key, true)}>
                  Delete anyway
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {nextCursor && (
        <button type="button" onClick={() => void loadMore()}>
          Load more
        </button>
      )}
    </section>
  );
}
