import { ok } from "../../http/envelope";
import type { AuthedRouteContext } from "../../http/types";
import { listAudit } from "../../orgs/audit.queries";
import type { OrgRouteContext } from "../orgs/org-access";
import { keysetPage } from "../orgs/org-views";
import type { MyAuditRoute, OrgAuditRoute } from "./audit.routes";

export async function orgAudit(c: OrgRouteContext<OrgAuditRoute>) {
  const { orgId } = c.req.valid("param");
  const { cursor, ...filter } = c.req.valid("query");
  const rows = await listAudit(c.var.dbs.directory, { orgId }, { ...filter, afterId: cursor });
  return ok(
    c,
    keysetPage(rows, filter.limit, (row) => row.id),
  );
}

export async function myAudit(c: AuthedRouteContext<MyAuditRoute>) {
  const { cursor, ...filter } = c.req.valid("query");
  const rows = await listAudit(
    c.var.dbs.directory,
    { subjectId: c.get("user").id },
    { ...filter, afterId: cursor },
  );
  return ok(
    c,
    keysetPage(rows, filter.limit, (row) => row.id),
  );
}
