// Runs in the Durable Object: where a chat message's file part points. Only two places are read: this
// service's download URL of a key (relative, or absolute on the socket's own origin), read from R2 as
// the chat's owner, and a bounded `data:` URL. Nothing is ever fetched.
import type { FileUIPart } from "ai";
import { fromBase64 } from "../core/base64url";
import { keyOfDownloadPath } from "../files/file-urls";
import { DATA_URL_MAX_CHARS, OMITTED_DATA_URL } from "./file-parts";

export type FileSource =
  | { kind: "key"; key: string }
  | { kind: "data"; bytes: Uint8Array }
  | { kind: "refused"; reason: string };

const DATA_URL = /^data:[^,]*?(;base64)?,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const refused = (reason: string): FileSource => ({ kind: "refused", reason });

/** What the user sees for a part the chat cannot use, and the model for one further back. */
export const refusals = {
  elsewhere: (name: string) =>
    `“${name}” is not a file of this service. Attach one of your files (its /api/download/<key> URL) or a data: URL of at most ${DATA_URL_MAX_CHARS} characters.`,
  invalid: (name: string) => `“${name}” is not a valid data: URL.`,
  dataTooLarge: (name: string) =>
    `“${name}” is longer than the ${DATA_URL_MAX_CHARS} characters a data: URL may have. Upload it, then attach it from your files.`,
} as const;

function dataSource(url: string, name: string): FileSource {
  if (url === OMITTED_DATA_URL || url.length > DATA_URL_MAX_CHARS)
    return refused(refusals.dataTooLarge(name));
  const match = DATA_URL.exec(url);
  if (!match) return refused(refusals.invalid(name));
  const [, base64, data = ""] = match;
  if (base64) {
    return BASE64.test(data) && data.length % 4 === 0
      ? { kind: "data", bytes: fromBase64(data) }
      : refused(refusals.invalid(name));
  }
  try {
    return { kind: "data", bytes: new TextEncoder().encode(decodeURIComponent(data)) };
  } catch {
    return refused(refusals.invalid(name));
  }
}

/** The path of an absolute URL on `origin`, or null for any other origin (or a URL that is none). */
function pathOnOrigin(url: string, origin: string | undefined): string | null {
  if (!origin || !/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && !parsed.search && !parsed.hash ? parsed.pathname : null;
  } catch {
    return null;
  }
}

/** Where `part` points, given the origin its socket was opened at. */
export function fileSource(part: FileUIPart, name: string, origin: string | undefined): FileSource {
  const url: unknown = part.url;
  if (typeof url !== "string") return refused(refusals.elsewhere(name));
  if (url.startsWith("data:")) return dataSource(url, name);
  const path = url.startsWith("/") && !url.startsWith("//") ? url : pathOnOrigin(url, origin);
  const key = path === null ? null : keyOfDownloadPath(path);
  return key === null ? refused(refusals.elsewhere(name)) : { kind: "key", key };
}
