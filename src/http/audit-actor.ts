import type { AuditActor } from "../orgs/audit.queries";
import type { AuthedEnv } from "./types";

interface RequestContext {
  req: { header(name: string): string | undefined };
  var: Pick<AuthedEnv["Variables"], "user" | "credential" | "requestId">;
}

/** Who a REST request acts as, for the audit entries its writes append. */
export function auditActorOf(c: RequestContext): AuditActor & { actorId: number } {
  return {
    actorId: c.var.user.id,
    door: "rest",
    credential: c.var.credential.kind === "api_key" ? "api_key" : "session",
    ip: c.req.header("cf-connecting-ip") ?? null,
    requestId: c.var.requestId,
  };
}
