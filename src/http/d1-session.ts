import type { MiddlewareHandler } from "hono";
import { openDatabases } from "../db/databases";
import { workspaceFenced } from "../db/errors";
import { forgetRoutes } from "../db/route-cache";
import { formatBookmarks, parseBookmarks } from "./d1-bookmarks";
import { ApiError } from "./errors";
import type { AppEnv } from "./types";

export const BOOKMARK_HEADER = "x-d1-bookmark";
const READS = new Set(["GET", "HEAD"]);

/**
 * Opens each /api request's databases (src/db/databases.ts) as `c.var.dbs`, every database it touches in
 * one D1 session (read replication): reads may be served by a replica, and a client that sends back the
 * bookmarks of its last response reads its own writes. Without a bookmark, reads may start anywhere and
 * writes start at the primary. Every response carries each database's latest bookmark (the ones sent for
 * databases it did not touch kept as they were).
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header(BOOKMARK_HEADER);
  const sent = header === undefined ? new Map<string, string>() : parseBookmarks(c.env, header);
  if (sent === null) {
    throw new ApiError(400, `Invalid ${BOOKMARK_HEADER}: send back the value of an earlier response`);
  }
  const dbs = openDatabases(c.env, {
    sent,
    first: READS.has(c.req.method) ? "first-unconstrained" : "first-primary",
  });
  c.set("dbs", dbs);
  await next();
  // A write met a fence: a route this isolate remembers may be out of date (it should not be: a move
  // waits for them to expire first), so every one is read again; the answer is 503, and its retry re-reads.
  if (c.error && workspaceFenced(c.error)) forgetRoutes();
  const bookmark = formatBookmarks(new Map([...sent, ...dbs.bookmarks()]));
  // On the final response, as apiSecurityHeaders does: c.header() now would copy the whole answer.
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
};
