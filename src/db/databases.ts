import type { Owner } from "../core/owner";
import { createDb, type Db } from "./client";

/** A data database's binding name: "DB_SHARD_<n>", or "DB" (the directory, for workspaces made before shards). */
export type ShardName = string;

/**
 * The one way into D1 (issue 42): the directory (accounts, credentials, teams, memberships, invitations, the
 * account audit, the workspaces map) and the data database of each workspace (a user's personal data or a
 * team's: todos, attachments, change log, files, quotas, share links, uploads, chat index, AI usage, team audit).
 * Opened once per request (src/http/d1-session.ts) or per Durable Object / scheduled event with
 * openDatabases(env).
 */
export interface Databases {
  readonly directory: Db;
  /** The data database holding `owner`'s workspace: at most one directory read per request. */
  of(owner: Owner): Promise<Db>;
  /** Every data database, for work across workspaces (admin lists, sweeps). */
  all(): readonly { shard: ShardName; db: Db }[];
}

/** Skeleton: every workspace on the directory until the shard router lands. */
export function openDatabases(env: Env): Databases {
  const directory = createDb(env.DB);
  return {
    directory,
    of: async () => directory,
    all: () => [{ shard: "DB", db: directory }],
  };
}
