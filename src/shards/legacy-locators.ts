import { ownerIdFromChatName } from "../auth/chat-names";
import { userOfChatId } from "../chats/chat-ids";
import { ownerOfUuid } from "../core/owner-uuids";
import type { Locator } from "../db/legacy-locators-schema";
import { ownerOfKey } from "../files/file-keys";
import type { MovedTable } from "./moved-tables";
import type { Row } from "./workspace-sql";

// Keys, link tokens, upload ids and chat ids from before shards carry no owner: a move off the directory
// records where their rows go (src/db/legacy-locators-schema.ts). Those that carry one need none.

const ownerless = (kind: Locator["kind"], carries: (ref: string) => boolean) => (ref: unknown) =>
  typeof ref === "string" && !carries(ref) ? [{ kind, ref }] : [];

const fileKey = ownerless("file", (key) => ownerOfKey(key) !== null);
// A link's row does not say whether its token named the owner: every link moved off the directory gets one.
const linkId = ownerless("link", () => false);

/** A deleted file's links, kept as a JSON array of their rows: put back on restore, with their old tokens. */
function keptLinks(links: unknown): Locator[] {
  if (typeof links !== "string") return [];
  const rows = JSON.parse(links) as { id?: unknown }[];
  return rows.flatMap((row) => linkId(row.id));
}

/** Per table holding such keys: the locators a row needs, from its columns by name. */
const LOCATED: Record<string, (get: (column: string) => unknown) => Locator[]> = {
  files_table: (get) => fileKey(get("key")),
  deleted_files_table: (get) => [...fileKey(get("key")), ...keptLinks(get("links"))],
  file_links_table: (get) => linkId(get("id")),
  uploads_table: (get) => ownerless("upload", (id) => ownerOfUuid(id) !== null)(get("id")),
  chats_table: (get) =>
    ownerless("chat", (id) => userOfChatId(id) !== null || ownerIdFromChatName(id) !== null)(get("id")),
};

/** The locators `rows` of `table` need: one per key, token or id among them that carries no owner. */
export function locatorsOf(table: MovedTable, rows: readonly Row[]): Locator[] {
  const located = LOCATED[table.name];
  if (!located) return [];
  return rows.flatMap((row) => located((column) => row[table.columns.indexOf(column)]));
}

/** Records `locators` as the workspace's (a later move's record wins), in one statement on the directory. */
export function recordLocators(
  directory: D1Database,
  workspaceId: number,
  locators: readonly Locator[],
): D1PreparedStatement {
  return directory
    .prepare(
      `INSERT INTO legacy_locators_table (kind, ref, workspaceId)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2 FROM json_each(?1) WHERE true
       ON CONFLICT (kind, ref) DO UPDATE SET workspaceId = excluded.workspaceId`,
    )
    .bind(JSON.stringify(locators.map(({ kind, ref }) => [kind, ref])), workspaceId);
}
