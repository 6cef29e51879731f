import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import { humanError } from "../api/human-error";
import { Checkbox } from "../ui/field";
import { ErrorMessage } from "../ui/error-message";
import { formatBytes } from "../ui/format";
import { Card, EmptyState, Page } from "../ui/page";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import { FileUpload } from "../todos/file-upload";
import { ReadOnlyNotice } from "../workspace/read-only-notice";
import { useMyTeams } from "../workspace/use-my-teams";
import { WorkspaceSwitcher } from "../workspace/workspace-switcher";
import { DeleteFileDialog } from "./delete-file-dialog";
import { FileRow } from "./file-row";
import { ShareDialog } from "./share-dialog";
import { StorageMeter } from "./storage-meter";
import type { FileRecord, StorageUsage } from "./types";

const PAGE_SIZE = 20;

/**
 * Your files or, with the switcher (shared with Todos), a team's, newest first: storage used, an
 * upload (public or private; a team's are private to it), share links and delete. A team's viewer
 * may only download.
 */
export function FilesScreen() {
  const workspace = useMyTeams();
  const { team, orgId } = workspace;
  const readOnly = team?.role === "viewer";
  const [files, setFiles] = useState<FileRecord[]>([]);
  const [usage, setUsage] = useState<StorageUsage | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [privately, setPrivately] = useState(false);
  const [sharing, setSharing] = useState<FileRecord | null>(null);
  const [deleting, setDeleting] = useState<FileRecord | null>(null);

  const owner = orgId === null ? {} : { orgId };
  const reload = useCallback(async () => {
    if (!workspace.ready) return;
    try {
      const page = await unwrap(
        api.GET("/api/files", {
          params: { query: { limit: PAGE_SIZE, ...(orgId === null ? {} : { orgId }) } },
        }),
      );
      setFiles(page.items);
      setUsage(page.usage);
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [orgId, workspace.ready]);
  useEffect(() => {
    // Nothing of the last workspace's list while the next one loads.
    setFiles([]);
    setUsage(null);
    setNextCursor(null);
    void reload();
  }, [reload]);

  async function loadMore() {
    if (!nextCursor) return;
    try {
      const page = await unwrap(
        api.GET("/api/files", { params: { query: { limit: PAGE_SIZE, cursor: nextCursor, ...owner } } }),
      );
      // Keyset paging: files uploaded meanwhile are not on the next page, so nothing repeats.
      setFiles((shown) => [...shown, ...page.items]);
      setUsage(page.usage);
      setNextCursor(page.nextCursor);
    } catch (err) {
      setError(err);
    }
  }

  /** Undo of a delete: the same file, bytes and share links, back through the service. */
  async function restore(file: FileRecord) {
    try {
      await unwrap(api.POST("/api/files/{key}/restore", { params: { path: { key: file.key } } }));
      toast({ title: `Restored “${file.originalName}”` });
    } catch (err) {
      toast({
        tone: "error",
        title: `“${file.originalName}” was not restored`,
        description: humanError(err).message,
      });
    }
    await reload();
  }

  return (
    <Page
      title="Files"
      description="Everything you uploaded, for your todos or on its own."
      actions={<WorkspaceSwitcher teams={workspace.teams} orgId={orgId} />}
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:items-start">
        <div className="space-y-6">
          {usage && (
            <Card title="Storage">
              <StorageMeter usage={usage} />
            </Card>
          )}
          {readOnly ? (
            <ReadOnlyNotice what="files" />
          ) : (
            <Card title="Upload">
              <div className="space-y-4">
                {team ? (
                  <p className="text-sm text-slate-600">
                    Private to {team.name}: its members download it, and people you send a share link to.
                  </p>
                ) : (
                  <Checkbox
                    label="Private"
                    hint="Only you, and people you send a share link to, can download it."
                    checked={privately}
                    onChange={(event) => setPrivately(event.currentTarget.checked)}
                  />
                )}
                <FileUpload
                  label="Upload a file"
                  orgId={orgId}
                  visibility={team ? undefined : privately ? "private" : "public"}
                  onUploaded={(result, file) => {
                    toast({ title: `Uploaded “${file.name}”`, description: formatBytes(result.size) });
                    return reload();
                  }}
                />
              </div>
            </Card>
          )}
        </div>
        <Card title={team ? `${team.name}'s files` : "Your files"}>
          <ErrorMessage error={error} />
          {files.length === 0 && usage && (
            <EmptyState title="No files yet.">Upload one here, or attach one to a todo.</EmptyState>
          )}
          <ul aria-label="Files" className="divide-y divide-slate-100">
            {files.map((file) => (
              <FileRow
                key={file.key}
                file={file}
                readOnly={readOnly}
                onShare={() => setSharing(file)}
                onDelete={() => setDeleting(file)}
                onDownloadFailed={(err) =>
                  toast({
                    tone: "error",
                    title: `“${file.originalName}” did not download`,
                    description: humanError(err).message,
                  })
                }
              />
            ))}
          </ul>
          {nextCursor && (
            <Button className="mt-4" onClick={() => void loadMore()}>
              Load more
            </Button>
          )}
        </Card>
      </div>
      {sharing && <ShareDialog file={sharing} onClose={() => setSharing(null)} />}
      {deleting && (
        <DeleteFileDialog
          file={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            const file = deleting;
            toast({
              title: `Deleted “${file.originalName}”`,
              action: {
                label: "Undo",
                altText: `Undo deleting ${file.originalName}`,
                run: () => void restore(file),
              },
            });
            void reload();
          }}
        />
      )}
    </Page>
  );
}
