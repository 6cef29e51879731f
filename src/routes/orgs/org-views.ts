import type { OrgRole } from "../../db/orgs-schema";
import type { OrgRow } from "../../orgs/orgs.queries";
import { encodeCursor } from "../../core/paging";

/** A team as answered: with the caller's role, and the standing ownership offer (an expired one is none). */
export function orgView(org: OrgRow, role: OrgRole, now = new Date().toISOString()) {
  const stands = org.transferTo !== null && org.transferExpiresAt !== null && org.transferExpiresAt > now;
  return {
    id: org.id,
    name: org.name,
    role,
    createdAt: org.createdAt,
    updatedAt: org.updatedAt,
    transfer: stands ? { userId: org.transferTo!, expiresAt: org.transferExpiresAt! } : null,
  };
}

/** `{items, nextCursor}` from a query that read one row past `limit`, keyed by `keyOf`. */
export function keysetPage<T>(rows: T[], limit: number, keyOf: (row: T) => number) {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(keyOf(items.at(-1)!)) : null };
}
