import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { FileRecord } from "../files/types";
import { FileUpload } from "../todos/file-upload";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { formatBytes, formatDate } from "../ui/format";
import { LockIcon } from "../ui/icons";

const PAGE_SIZE = 10;

type Picked = Pick<FileRecord, "key" | "originalName" | "contentType">;

/**
 * Picks a file for a chat message: one of your files, or a new upload (private: the chat reads it as
 * you, and nobody else needs it). The chat reads text files and notes the rest by name.
 */
export function AttachDialog({
  open,
  onOpenChange,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPick: (file: Picked) => void;
}) {
  const [files, setFiles] = useState<FileRecord[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function load(cursor?: string) {
    try {
      const query = cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE };
      const page = await unwrap(api.GET("/api/files", { params: { query } }));
      setFiles((shown) => (cursor && shown ? [...shown, ...page.items] : page.items));
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => {
    if (open) void load();
  }, [open]);

  function pick(file: Picked) {
    onPick(file);
    onOpenChange(false);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Attach a file"
      description="The chat reads the file each time you send a message: text, Markdown, CSV or JSON as text, other files by name."
    >
      <div className="space-y-5">
        <FileUpload
          label="Upload from this device"
          visibility="private"
          onUploaded={(result, file) =>
            pick({ key: result.key, originalName: file.name, contentType: result.contentType })
          }
        />
        <section aria-labelledby="attach-mine" className="space-y-2">
          <h3 id="attach-mine" className="text-sm font-medium text-slate-800">
            Or one of your files
          </h3>
          <ErrorMessage error={error} />
          {files?.length === 0 && <p className="text-sm text-slate-600">No files yet: upload one above.</p>}
          <ul
            aria-label="Your files"
            className="divide-y divide-slate-100 rounded-lg border border-slate-200"
          >
            {files?.map((file) => (
              <li key={file.key}>
                <button
                  type="button"
                  onClick={() => pick(file)}
                  className="flex w-full min-w-0 items-center gap-3 px-3 py-2 text-left hover:bg-orange-50"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900">{file.originalName}</span>
                    <span className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
                      {file.visibility === "private" && (
                        <span className="flex items-center gap-1">
                          <LockIcon /> Private
                        </span>
                      )}
                      <span>{formatBytes(file.size)}</span>
                      <span>{formatDate(file.createdAt)}</span>
                    </span>
                  </span>
                  <span className="text-sm font-medium text-orange-800">Attach</span>
                </button>
              </li>
            ))}
          </ul>
          {nextCursor && (
            <Button size="sm" onClick={() => void load(nextCursor)}>
              Load more
            </Button>
          )}
        </section>
      </div>
    </Dialog>
  );
}
