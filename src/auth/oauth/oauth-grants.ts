import type { GrantSummary } from "@cloudflare/workers-oauth-provider";
import { OAUTH_SCOPES, type OAuthScope } from "./oauth-resource";
import { grantStore } from "./oauth-server";

// A user's OAuth grants (their connected apps) in the library's KV records: listed and revoked from
// the REST API, all revoked when the user is deleted, expired ones purged by the hourly cron.

/** Grants listed per user: one KV read each. A grant replaces the earlier one of its client. */
export const MAX_LISTED_GRANTS = 100;
// Grants and tokens the cron checks per run, each phase: a few KV reads apiece.
const PURGE_BATCH = 100;
// Where the purge left off (KV keys of the library are `client:`, `grant:`, `token:`, `transaction:`...).
const PURGE_CURSOR_KEY = "cron:oauth-purge-cursor";

export interface GrantView {
  id: string;
  clientId: string;
  clientName: string;
  redirectHost: string | null;
  scopes: OAuthScope[];
  createdAt: string;
  expiresAt: string | null;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

type GrantMetadata = { clientName?: string; redirectHost?: string; grantVersion?: number };

/** Consented under the user's current grant version (grants from before versions have none: 0). */
const current = (grant: GrantSummary, grantVersion: number) =>
  (((grant.metadata ?? {}) as GrantMetadata).grantVersion ?? 0) === grantVersion;

function view(grant: GrantSummary): GrantView {
  // Written by the consent page (src/oauth/consent.ts).
  const metadata = (grant.metadata ?? {}) as GrantMetadata;
  return {
    id: grant.id,
    clientId: grant.clientId,
    clientName: metadata.clientName ?? grant.clientId,
    redirectHost: metadata.redirectHost ?? null,
    scopes: OAUTH_SCOPES.filter((scope) => grant.scope.includes(scope)),
    createdAt: iso(grant.createdAt),
    expiresAt: grant.expiresAt === undefined ? null : iso(grant.expiresAt),
  };
}

/** The user's grants that still work, newest first: none from before the account's last recovery. */
export async function listGrants(env: Env, user: { id: number; grantVersion: number }): Promise<GrantView[]> {
  const { items } = await grantStore(env).listUserGrants(String(user.id), { limit: MAX_LISTED_GRANTS });
  return items
    .filter((grant) => current(grant, user.grantVersion))
    .map(view)
    .toSorted((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}

/** Revokes one of the user's grants with its tokens; null when they have none of that id. */
export async function revokeGrant(
  env: Env,
  user: { id: number; grantVersion: number },
  grantId: string,
): Promise<GrantView | null> {
  const grant = (await listGrants(env, user)).find((candidate) => candidate.id === grantId);
  if (!grant) return null;
  await grantStore(env).revokeGrant(grantId, String(user.id));
  return grant;
}

/** Revokes every grant of a deleted user; answers how many. */
export async function revokeAllGrants(env: Env, userId: number): Promise<number> {
  const store = grantStore(env);
  let revoked = 0;
  let cursor: string | undefined;
  do {
    const page = await store.listUserGrants(String(userId), { cursor });
    await Promise.all(page.items.map((grant) => store.revokeGrant(grant.id, String(userId))));
    revoked += page.items.length;
    cursor = page.cursor;
  } while (cursor);
  return revoked;
}

/**
 * The cron's share: one batch of the library's sweep of expired grants, and of grants and tokens whose
 * client or grant is gone (KV's own expiry removes most records first), continuing where the last run
 * stopped. Answers how many records went.
 */
export async function purgeExpiredGrants(env: Env): Promise<number> {
  const cursor = (await env.OAUTH_KV.get(PURGE_CURSOR_KEY)) ?? undefined;
  let result;
  try {
    result = await grantStore(env).purgeExpiredData({ batchSize: PURGE_BATCH, cursor });
  } catch (err) {
    // A cursor KV no longer knows must not stop every later run: the next one starts over.
    if (cursor) await env.OAUTH_KV.delete(PURGE_CURSOR_KEY);
    throw err;
  }
  if (result.cursor) await env.OAUTH_KV.put(PURGE_CURSOR_KEY, result.cursor);
  else if (cursor) await env.OAUTH_KV.delete(PURGE_CURSOR_KEY);
  return result.grantsPurged + result.tokensPurged;
}
