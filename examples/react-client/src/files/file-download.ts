import { apiError, ApiError, downloadUrl } from "../api/client";
import { freshToken } from "../auth/refresh";
import type { FileRecord } from "./types";

/**
 * Saves a file to the device. A public file is a plain link; a private one needs the token, which a
 * link cannot send, so it is fetched with it and handed to the browser as a blob.
 */
export async function saveFile(file: Pick<FileRecord, "key" | "visibility" | "originalName">): Promise<void> {
  let href = downloadUrl(file.key);
  let blobUrl: string | null = null;
  if (file.visibility === "private") {
    const token = await freshToken();
    let res: Response;
    try {
      res = await fetch(href, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    } catch {
      throw new ApiError("Cannot reach the service", 0);
    }
    if (!res.ok) throw apiError(await res.json().catch(() => null), res.status);
    href = blobUrl = URL.createObjectURL(await res.blob());
  }
  const link = document.createElement("a");
  link.href = href;
  link.download = file.originalName;
  document.body.append(link);
  link.click();
  link.remove();
  if (blobUrl) setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
}
