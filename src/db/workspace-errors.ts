import type { Owner } from "../core/owner";

// Apart from databases.ts, so the error handler (also loaded by Durable Objects) does not load drizzle.

/** A workspace asked for whose user or team is gone (deleted after the gate let the request in). */
export class WorkspaceOwnerGone extends Error {
  constructor(readonly owner: Owner) {
    super(`No ${owner.kind} for a workspace`);
    this.name = "WorkspaceOwnerGone";
  }
}
