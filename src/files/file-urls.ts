// Runs in both: how a file is named to clients. A key travels as one path segment (`/` sent as %2F),
// exactly as GET /api/download/{key} takes it.

const DOWNLOAD_PREFIX = "/api/download/";
/** The scheme of files as MCP resources: not fetchable from the web (a private file needs its owner). */
const RESOURCE_PREFIX = "files:///";

/** The download path of a key, relative to this service's origin. */
export function downloadPath(key: string): string {
  return `${DOWNLOAD_PREFIX}${encodeURIComponent(key)}`;
}

/** The key in one encoded segment after `prefix`, or null for anything else (a second segment, a query, bad escapes). */
function keyAfter(prefix: string, value: string): string | null {
  if (!value.startsWith(prefix)) return null;
  const segment = value.slice(prefix.length);
  if (segment === "" || /[/?#]/.test(segment)) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The key of a download path (`/api/download/<key>`), or null. */
export function keyOfDownloadPath(path: string): string | null {
  return keyAfter(DOWNLOAD_PREFIX, path);
}

/** A file as an MCP resource: `files:///<key>`. */
export function fileResourceUri(key: string): string {
  return `${RESOURCE_PREFIX}${encodeURIComponent(key)}`;
}

/** The key of a resource URI fileResourceUri() made, or null. */
export function keyOfResourceUri(uri: string): string | null {
  return keyAfter(RESOURCE_PREFIX, uri);
}
