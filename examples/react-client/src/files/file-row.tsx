import { downloadUrl } from "../api/client";
import { Button } from "../ui/button";
import { formatBytes, formatDate } from "../ui/format";
import { LockIcon, MoreIcon } from "../ui/icons";
import { Menu } from "../ui/menu";
import { saveFile } from "./file-download";
import type { FileRecord } from "./types";

/**
 * One file: its name (a download link when public), size, date, and a menu of what to do with it
 * (a team's viewer may only download).
 */
export function FileRow({
  file,
  onShare,
  onDelete,
  onDownloadFailed,
  readOnly = false,
}: {
  file: FileRecord;
  readOnly?: boolean;
  onShare: () => void;
  onDelete: () => void;
  onDownloadFailed: (error: unknown) => void;
}) {
  return (
    <li className="flex items-center gap-3 py-3">
      <div className="min-w-0 flex-1">
        {file.visibility === "public" ? (
          <a
            href={downloadUrl(file.key)}
            download={file.originalName}
            className="file-name font-medium break-words text-orange-800 hover:underline"
          >
            {file.originalName}
          </a>
        ) : (
          <span className="file-name font-medium break-words text-slate-900">{file.originalName}</span>
        )}
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-sm text-slate-600">
          {file.visibility === "private" && (
            <span className="flex items-center gap-1 text-slate-700">
              <LockIcon /> Private
            </span>
          )}
          <span>{formatBytes(file.size)}</span>
          <span>{formatDate(file.createdAt)}</span>
        </p>
      </div>
      <Menu
        trigger={
          <Button variant="ghost" size="sm" aria-label={`Actions for ${file.originalName}`}>
            <MoreIcon />
          </Button>
        }
        items={[
          { label: "Download", onSelect: () => void saveFile(file).catch(onDownloadFailed) },
          ...(readOnly
            ? []
            : [
                { label: "Share link…", onSelect: onShare },
                "separator" as const,
                { label: "Delete…", onSelect: onDelete, danger: true },
              ]),
        ]}
      />
    </li>
  );
}
