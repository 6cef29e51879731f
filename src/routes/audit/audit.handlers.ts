import { orgOwner } from "../../core/owner";
import { ok } from "../../http/envelope";
import type { AuthedRouteContext } from "../../http/types";
import { listAudit } from "../../orgs/audit.queries";
import type { OrgRouteContext } from "../orgs/org-access";
import { keysetPage } from "../orgs/org-views";
import type { MyAuditRoute, OrgAuditRoute } from "./audit.routes";

export async function orgAudit(c: OrgRouteContext<OrgAuditRoute>) {
  const { orgId } = c.req.valid("param");
  const { cursor, ...filter } = c.req.valid("query");
  const { directory } = c.var.dbs;
  const sources = [directory, await c.var.dbs.of(orgOwner(orgId))];
  const rows = await listAudit(directory, sources, { orgId }, { ...filter, afterId: cursor });
  return ok(
    c,
    keysetPage(rows, filter.limit, (row) => row.id),
  );
}

export async function myAudit(c: AuthedRouteContext<MyAuditRoute>) {
  const { cursor, ...filter } = c.req.valid("query");
  const { directory } = c.var.dbs;
  const rows = await listAudit(
    directory,
    [directory],
    { subjectId: c.get("user").id },
    { ...filter, afterId: cursor },
  );
  return ok(
    c,
    keysetPage(rows, filter.limit, (row) => row.id),
  );
}
