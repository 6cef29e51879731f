import { ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import type { ListRoute, RevokeRoute } from "./oauth-grants.routes";

// The grants live in KV through the OAuth library, which loads on first use.
const grants = () => import("../../auth/oauth/oauth-grants");

export async function list(c: AuthedRouteContext<ListRoute>) {
  const { listGrants } = await grants();
  return ok(c, { items: await listGrants(c.env, c.get("user")) });
}

export async function revoke(c: AuthedRouteContext<RevokeRoute>) {
  const { id } = c.req.valid("param");
  const user = c.get("user");
  const { revokeGrant } = await grants();
  const grant = await revokeGrant(c.env, user, id);
  if (!grant) throw new ApiError(404, "Grant not found");
  c.get("logger").info("oauth_grant_revoked", { userId: user.id, grantId: id, clientId: grant.clientId });
  return ok(c, grant);
}
