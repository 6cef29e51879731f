import type { MiddlewareHandler } from "hono";
import { createDb } from "../db/client";
import { ApiError } from "./errors";
import type { AppEnv } from "./types";

export const BOOKMARK_HEADER = "x-d1-bookmark";
// What D1 hands out: dash-separated hex groups (`00000085-0000024c-00004f2a-<32 hex>`).
const BOOKMARK = /^[0-9a-f]{8}(?:-[0-9a-f]{8,64}){1,7}$/i;
const READS = new Set(["GET", "HEAD"]);

/**
 * Runs each /api request in one D1 session (read replication): reads may be served by a replica,
 * and a client that sends back the bookmark of its last response reads its own writes. Without a
 * bookmark, reads may start anywhere and writes start at the primary. Every response carries the
 * session's latest bookmark once D1 has been queried (or the one sent, if none was).
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER);
  if (sent !== undefined && !BOOKMARK.test(sent)) {
    throw new ApiError(400, `Invalid ${BOOKMARK_HEADER}: send back the value of an earlier response`);
  }
  const session = c.env.DB.withSession(
    sent ?? (READS.has(c.req.method) ? "first-unconstrained" : "first-primary"),
  );
  c.set("db", createDb(session));
  await next();
  const bookmark = session.getBookmark() ?? sent;
  // On the final response, as apiSecurityHeaders does: c.header() now would copy the whole answer.
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
};
