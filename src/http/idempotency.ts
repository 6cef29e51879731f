import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import { IDEMPOTENCY_TTL_HOURS, idempotencyStore, type IdempotencyStore } from "../idempotency/idempotency";
import type { IdempotencyId } from "../idempotency/idempotency.queries";
import { bufferedFingerprint, StreamedFingerprint } from "./body-fingerprint";
import { ApiError } from "./errors";
import type { AuthUser, Credential } from "../auth/credentials";
import { answerHeld } from "./held-keys";
import { ownDb } from "./workspace-db";
import type { AuthedEnv, ReplayResult } from "./types";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
const KEY = /^[\x21-\x7e]{1,255}$/;
// Headers of a kept answer that a replay repeats; the others are set afresh by the middlewares.
const KEPT_HEADERS = ["content-type", "etag", "location"];

/** The request header, as the routes that take it declare it (openapi.json). */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(KEY, "1-255 visible ASCII characters")
    .optional()
    .openapi({
      description:
        "Makes a retry safe: the same key with the same request (method, path and body) from the same " +
        "credential (session or API key) answers the first request's answer again, with " +
        "`Idempotent-Replayed: true`, for 24 h; another credential's key is its own; with another request 422; while " +
        "the first is still running 409. Only 2xx answers are kept: after a failure the key may be reused. " +
        "A UUID per logical request is a good key.",
      example: "5f1c7a0e-2b9d-4f4e-8a53-0c6d1e2f3a4b",
    }),
});

interface IdempotencyOptions {
  /** The route's name in the key (its method and path pattern). */
  route: string;
  ttlMs: number;
  /** After this long an unanswered claim counts as a request that died: the key is free again. */
  inFlightMs: number;
  /** The body streams to the handler (an upload): hashed on its way through, not read first. */
  streamedBody?: boolean;
  /**
   * The route's write takes the key in its own D1 batch (src/idempotency/keyed-writes.ts): nothing is
   * claimed here, the handler reads the key from `c.get("idempotencyKey")`. Buffered bodies only.
   */
  inBatch?: boolean;
}

const iso = (at: Date, minusMs: number) => new Date(at.getTime() - minusMs).toISOString();

/**
 * The credential a kept answer belongs to, beside its user: an answer minted under a session (a
 * ticket carrying its `sid`, a new API key) is never replayed to an API key or another session.
 */
function holder(user: AuthUser, credential: Credential): string {
  if (credential.kind === "session") return `session:${credential.sessionId}`;
  if (credential.kind === "api_key") return `key:${credential.keyId}`;
  return `token:${user.tokenVersion}`;
}

/**
 * `Idempotency-Key` on a write route: the first request with a key runs and its 2xx answer is kept for
 * `ttlMs`; a retry with the same key and request gets that answer again, another request with the key
 * 422, and a retry while the first still runs 409. Keys are per user, credential and route.
 */
function idempotency(options: IdempotencyOptions): MiddlewareHandler<AuthedEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next();
    if (!KEY.test(key)) throw new ApiError(400, "Invalid Idempotency-Key: 1-255 visible ASCII characters");
    const store = idempotencyStore(c.env);
    const user = c.get("user");
    const id = { userId: user.id, route: `${options.route} ${holder(user, c.get("credential"))}`, key };
    const url = new URL(c.req.url);
    const target = url.pathname + url.search;
    const streamed = options.streamedBody
      ? new StreamedFingerprint(c.req.method, target, c.req.header("Content-Type") ?? null)
      : undefined;
    const fingerprint = streamed
      ? null
      : await bufferedFingerprint(c.req.method, target, await c.req.arrayBuffer());
    const at = new Date();
    const claimedAt = at.toISOString();
    const bounds = { inFlightBefore: iso(at, options.inFlightMs), expiredBefore: iso(at, options.ttlMs) };
    if (options.inBatch && fingerprint !== null) {
      const sent = () => Promise.resolve(fingerprint);
      c.set("idempotencyKey", {
        write: { ...id, fingerprint, claimedAt, ...bounds },
        // A row without a result was kept by the route before it took keys in its batch: that answer is
        // the route's own too.
        answerTaken: async <R extends Response>(keyDb: Db, answerResult: ReplayResult<R>) =>
          (await answerHeld(await store.find(keyDb, id), options.inFlightMs, sent, answerResult)) as R,
      });
      return next();
    }
    // Keys not taken in a route's own batch live in the caller's personal workspace.
    const db = await ownDb(c);
    if (!(await store.claim(db, id, fingerprint, claimedAt, bounds))) {
      const sent = async () => fingerprint ?? (await streamed!.of(c.req.raw.body));
      return answerHeld(await store.find(db, id), options.inFlightMs, sent);
    }
    return run(c, next, { store, db, id, claimedAt, fingerprint, streamed });
  };
}

/**
 * The Idempotency-Key middleware of one route (`route`: its method and path pattern), keeping keys in
 * D1. `inFlightSeconds` bounds how long a request that died keeps its key: longer for uploads, whose
 * bodies may take minutes. `inBatch`: the route's write takes the key in its own D1 batch.
 */
export function idempotent(
  route: string,
  { streamedBody = false, inFlightSeconds = 60, inBatch = false } = {},
) {
  return idempotency({
    route,
    ttlMs: IDEMPOTENCY_TTL_HOURS * 3_600_000,
    inFlightMs: inFlightSeconds * 1000,
    streamedBody,
    inBatch,
  });
}

async function run(
  c: Context<AuthedEnv>,
  next: () => Promise<void>,
  claim: {
    store: IdempotencyStore;
    db: Db;
    id: IdempotencyId;
    claimedAt: string;
    fingerprint: string | null;
    streamed?: StreamedFingerprint;
  },
): Promise<void> {
  const { store, db, id, claimedAt, streamed } = claim;
  const body = c.req.raw.body;
  if (streamed && body) {
    c.req.raw = new Request(c.req.raw, { method: c.req.method, body: body.pipeThrough(streamed.stream) });
  }
  try {
    await next();
  } catch (err) {
    await store.release(db, id, claimedAt);
    throw err;
  }
  const res = c.res;
  if (res.status < 200 || res.status > 299) return store.release(db, id, claimedAt);
  const headers = Object.fromEntries(
    KEPT_HEADERS.flatMap((name) => {
      const value = res.headers.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
  // The write has happened: a failure to keep its answer is logged, never turned into an error answer.
  try {
    await store.keep(db, id, claimedAt, {
      fingerprint: claim.fingerprint ?? (await streamed!.finish()),
      status: res.status,
      headers: JSON.stringify(headers),
      body: await res.clone().text(),
    });
  } catch (err) {
    c.get("logger").error("idempotency_keep_failed", { route: id.route, error: String(err) });
  }
}
