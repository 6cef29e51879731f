import { forgetAuthUser } from "../../auth/auth-user-cache";
import { accountEntry } from "../../http/audit-actor";
import { endSocketsOf } from "../../agents/end-sockets";
import { deleteSession, listSessions } from "../../auth/sessions/sessions.queries";
import { ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import type { ListRoute, RevokeRoute } from "./sessions.routes";

export async function list(c: AuthedRouteContext<ListRoute>) {
  const credential = c.get("credential");
  const current = credential.kind === "session" ? credential.sessionId : null;
  const rows = await listSessions(c.var.dbs.directory, c.get("user").id);
  const items = rows.map(({ userId: _userId, ...session }) => ({
    ...session,
    current: session.id === current,
  }));
  return ok(c, { items });
}

export async function revoke(c: AuthedRouteContext<RevokeRoute>) {
  const { id } = c.req.valid("param");
  const user = c.get("user");
  const audit = accountEntry(
    c,
    user.id,
    { action: "session.ended", detail: { by: "revoke" } },
    { ifChanged: true },
  );
  if (!(await deleteSession(c.var.dbs.directory, id, user.id, audit)))
    throw new ApiError(404, "Session not found");
  forgetAuthUser(user.id);
  endSocketsOf(c, user.id);
  c.get("logger").info("session_revoked", { userId: user.id, sessionId: id });
  return ok(c, { id });
}
