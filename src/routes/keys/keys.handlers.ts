import { createApiKey } from "../../auth/api-keys/api-keys";
import { listApiKeys, revokeApiKey } from "../../auth/api-keys/api-keys.queries";
import { forgetAuthUser } from "../../auth/auth-user-cache";
import { endSocketsOf } from "../../agents/end-sockets";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { pageOf, pageOffset } from "../../core/paging";
import type { AuthedRouteContext } from "../../http/types";
import type { CreateRoute, ListRoute, RevokeRoute } from "./keys.routes";
import { WRITE_KEY_NEEDS_PASSWORD, writesData } from "./keys.schemas";
import { requireCurrentPassword } from "../../http/current-password";
import { accountEntry } from "../../http/audit-actor";

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const user = c.get("user");
  const { currentPassword, ...input } = c.req.valid("json");
  if (writesData(input.scopes)) {
    if (currentPassword === undefined) throw new ApiError(400, WRITE_KEY_NEEDS_PASSWORD);
    await requireCurrentPassword(c, user.id, currentPassword);
  }
  const audit = accountEntry(c, user.id, { action: "api_key.created", detail: { name: input.name } });
  const { view, key } = await createApiKey(c.var.dbs.directory, user.id, input, audit);
  c.get("logger").info("api_key_created", { userId: user.id, keyId: view.id, scopes: view.scopes });
  return created(c, { ...view, key });
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const query = c.req.valid("query");
  const { items, total } = await listApiKeys(
    c.var.dbs.directory,
    c.get("user").id,
    pageOffset(query),
    query.pageSize,
  );
  return ok(c, pageOf(items, total, query));
}

export async function revoke(c: AuthedRouteContext<RevokeRoute>) {
  const { id } = c.req.valid("param");
  const user = c.get("user");
  const audit = accountEntry(
    c,
    user.id,
    { action: "api_key.revoked", target: `key-${id}` },
    { ifChanged: true },
  );
  const key = await revokeApiKey(c.var.dbs.directory, id, user.id, audit);
  if (!key) throw new ApiError(404, "API key not found");
  forgetAuthUser(user.id);
  endSocketsOf(c, user.id);
  c.get("logger").info("api_key_revoked", { userId: user.id, keyId: id });
  return ok(c, key);
}
