import { expireCredentials } from "./auth/credential-expiry";
import { purgeExpiredGrants } from "./auth/oauth/oauth-grants";
import type { Logger } from "./core/logger";
import type { Db } from "./db/client";
import { openDatabases } from "./db/databases";
import { sweepAgentWipes } from "./chats/agent-wipes";
import { sweepErasures } from "./files/erasure";
import { sweepReservations } from "./files/reservation-sweep";
import { expireUploads } from "./files/resumable-expiry";
import { purgeExpiredKeys } from "./idempotency/idempotency";
import { purgeOldChanges } from "./todos/todo-sync";
import { purgeDeletedTodos } from "./todos/todo-trash.queries";
import { purgeDeletedFiles } from "./files/deleted-files-purge";
import { restorableSince } from "./core/restore-window";
import { purgeOldAudit } from "./orgs/audit.queries";
import { auditRetentionDays } from "./orgs/org-settings";

/**
 * The hourly cron (wrangler.jsonc `triggers`): abort resumable uploads nobody finished, drop expired
 * quota reservations, erase what deleted users left (objects, and the storage of their chats and todo
 * feed and of deleted chats), erase deleted files and forget deleted todos past their restore window
 * (RESTORE_WINDOW_SECONDS), remove ended sessions and spent reset links, purge
 * expired OAuth grants and tokens, todo changes past the sync horizon (30 days) and Idempotency-Key
 * answers past 24 h, audit entries past ORG_AUDIT_RETENTION_DAYS (365).
 * Each job runs even when another fails; all are idempotent.
 */
export async function runHourlyJobs(env: Env, logger: Logger): Promise<void> {
  const dbs = openDatabases(env);
  // A data job runs on every data database in turn, and on the directory's own tables, where a deleted
  // account's legacy rows queue their objects and agents even once no workspace is left on it.
  const dataDbs = new Set([dbs.directory, ...(await dbs.all()).map(({ db }) => db)]);
  const everyShard = (run: (db: Db) => Promise<number>) => async () => {
    let done = 0;
    for (const db of dataDbs) done += await run(db);
    return done;
  };
  const jobs: [string, () => Promise<number>][] = [
    ["uploads", everyShard((db) => expireUploads(env, db, logger))],
    ["reservations", everyShard((db) => sweepReservations(env.R2_BUCKET, db))],
    ["erasures", everyShard((db) => sweepErasures(env.R2_BUCKET, db))],
    ["deleted-files", everyShard((db) => purgeDeletedFiles(env.R2_BUCKET, db, restorableSince(env)))],
    ["deleted-todos", everyShard((db) => purgeDeletedTodos(db, restorableSince(env)))],
    ["agent-wipes", everyShard((db) => sweepAgentWipes(env, db, logger))],
    ["credentials", () => expireCredentials(env)],
    ["oauth", () => purgeExpiredGrants(env)],
    ["todo-changes", everyShard((db) => purgeOldChanges(db))],
    ["idempotency-keys", everyShard((db) => purgeExpiredKeys(db))],
    // The account audit and teams' member events in the directory, teams' data events in their shards.
    ["audit", everyShard((db) => purgeOldAudit(db, auditRetentionDays(env)))],
  ];
  for (const [job, run] of jobs) {
    try {
      const done = await run();
      if (done > 0) logger.info("sweep_done", { job, done });
    } catch (err) {
      logger.error("sweep_failed", { job, error: String(err) });
    }
  }
}
