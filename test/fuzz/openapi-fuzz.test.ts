// Property-based fuzzing of every operation in openapi.json (docs/security.md, V and E rows). Each answer
// must be a 4xx (or a 2xx where the input is in fact valid) in the envelope with a JSON content type,
// never a 5xx, within 2 s; a rejected request must leave every D1 row and R2 object as it was.
// Seeded: FUZZ_SEED=<n> npm test -- test/fuzz  (FUZZ_RUNS sets the runs per case).
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { signIn, signUp, type SignedUpUser } from "../helpers/auth";
import { createKey, isoAgo, sessionOf } from "../helpers/credentials";
import { requestResetLink } from "../helpers/email";
import { makeAdmin } from "../helpers/db";
import { api, request, expectData } from "../helpers/http";
import { createLink, linkPath } from "../helpers/files";
import { addPasskey } from "../helpers/passkeys";
import { createChat } from "../helpers/chats";
import { createTeam } from "../helpers/orgs";
import { dataDb, workspaceOf } from "../helpers/shards";
import { grantFor, grantIdOf } from "../helpers/oauth";
import { multipartBody } from "../helpers/multipart";
import { snapshotState, stateDiff, tablesWritten, type StoredState } from "../helpers/state";
import { b64url, claimsFor, craftToken, HS256_HEADER, nowSeconds } from "../helpers/tokens";
import {
  casesFor,
  operations,
  validRequest,
  type Fixture,
  type FuzzCase,
  type FuzzRequest,
  type Operation,
} from "./openapi-cases";
import { positiveProblem, positiveRequests, sampler } from "./positive-cases";
import { userOwner } from "../../src/core/owner";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";

declare module "vitest" {
  interface ProvidedContext {
    fuzzSeed: number;
    fuzzRuns: number;
    fuzzPositiveRuns: number;
  }
}

const SEED = inject("fuzzSeed");
const RUNS = inject("fuzzRuns");
const MAX_MS = 2_000;
const POSITIVE_RUNS = inject("fuzzPositiveRuns");
const OPERATIONS = operations();

let fixture: Fixture;
let state: StoredState;
const tally: { op: string; case: string; requests: number; rejected: number; maxMs: number }[] = [];

/** FNV-1a, so every (operation, case) pair gets its own reproducible seed. */
function seedFor(label: string): number {
  let hash = 0x811c9dc5;
  for (const char of label) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (hash ^ SEED) | 0;
}

async function createTodo(user: SignedUpUser): Promise<number> {
  const res = await api("/api/todos", { method: "POST", token: user.token, json: { title: "fuzz" } });
  return expectData(res, 201, TodoWithAttachmentsSchema).id;
}

/** A small file of `user`'s under `fuzz/`; its key. */
async function upload(user: SignedUpUser, name: string): Promise<string> {
  const form = multipartBody([
    { name: "directory", body: "fuzz" },
    { name: "file", filename: name, body: "hi" },
  ]);
  const res = await api("/api/upload", {
    method: "POST",
    token: user.token,
    body: form.body,
    headers: { "Content-Type": form.contentType },
  });
  return expectData(res, 201, UploadResultSchema).key;
}

async function buildFixture(): Promise<Fixture> {
  const [alice, bob, admin, ghost, forgetful, sampled, parked] = await Promise.all([
    signUp(),
    signUp(),
    signUp(),
    signUp(),
    signUp(),
    signUp(),
    signUp(),
  ]);
  await makeAdmin(admin.userId);
  // The admin workspace routes act on a workspace marked as moving: any move of it is refused (409), so no
  // fuzzed request starts a real one, whose copying would change the stored state under later cases.
  const parkedWorkspace = await workspaceOf(userOwner(parked.userId));
  await env.DB.prepare("UPDATE workspaces_table SET state = 'moving', targetShard = ? WHERE id = ?")
    .bind(parkedWorkspace.shard === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0", parkedWorkspace.id)
    .run();
  // Operations that end a session or revoke a key act on spares of Alice's: her token stays valid.
  const [spareSession, loggingOut] = [
    await signIn(alice.username, alice.password),
    await signIn(alice.username, alice.password),
  ];
  // The positive pass acts as a user of its own, whose sampled writes touch nothing the cases use.
  const sampledLogout = await signIn(sampled.username, sampled.password);
  const [aliceKey, bobKey, revokedKey, expiredKey] = [
    await createKey(alice.token, ["todos:read"]),
    await createKey(bob.token, ["todos:read"]),
    await createKey(alice.token, ["todos:read", "todos:write", "files:write", "agents:connect"]),
    await createKey(alice.token, ["todos:read", "todos:write", "files:write", "agents:connect"]),
  ];
  await api(`/api/keys/${revokedKey.id}/revoke`, { method: "POST", token: alice.token });
  await env.DB.prepare("UPDATE api_keys_table SET expiresAt = ? WHERE id = ?")
    .bind(isoAgo(1), expiredKey.id)
    .run();
  // OAuth grants: a spare of Alice's for the revoke operation, and Bob's for foreign ids.
  const [spareGrant, bobGrant] = [await grantFor(alice), await grantFor(bob)];
  const resetToken = await requestResetLink(forgetful.email);
  // Passkeys: Alice's to rename, a spare of hers for the delete operation, Bob's for foreign ids.
  const [alicePasskey, doomedPasskey, bobPasskey] = [
    (await addPasskey(alice)).passkey,
    (await addPasskey(alice)).passkey,
    (await addPasskey(bob)).passkey,
  ];
  const [aliceTodo, bobTodo, goneTodo] = await Promise.all([
    createTodo(alice),
    createTodo(bob),
    createTodo(alice),
  ]);
  await api(`/api/todos/${goneTodo}/delete`, { method: "POST", token: alice.token });
  // Deleted long ago: past its restore window, so a restore of it is refused (410) like any foreign id.
  await (
    await dataDb({ userId: alice.userId })
  )
    .prepare("UPDATE deleted_todos_table SET deletedAt = ? WHERE id = ?")
    .bind(isoAgo(365 * 86_400), goneTodo)
    .run();
  await api(`/api/users/${ghost.userId}/delete`, { method: "POST", token: ghost.token });
  const [storedKey, doomedKey, bobFileKey] = await Promise.all([
    upload(alice, "a b.txt"),
    // The delete operation's own file: a valid delete must not take the file every other operation uses.
    upload(alice, "doomed.txt"),
    upload(bob, "bob.txt"),
  ]);
  // Chats: Alice's, the delete operation's own, and Bob's for foreign ids.
  const [aliceChat, doomedChat, bobChat] = await Promise.all([
    createChat(alice),
    createChat(alice),
    createChat(bob),
  ]);
  // The link download's link, and the revoke operation's own link; bob's link for foreign ids.
  const [link, doomedLink, bobLink] = await Promise.all([
    createLink(alice.token, storedKey),
    createLink(alice.token, storedKey),
    createLink(bob.token, bobFileKey),
  ]);
  // Teams: Alice's, the delete operation's own, and Bob's for foreign ids.
  const [aliceOrg, doomedOrg, bobOrg] = await Promise.all([
    createTeam(alice.token),
    createTeam(alice.token),
    createTeam(bob.token),
  ]);

  const t = alice.token;
  const claims = claimsFor(alice.userId, alice.username);
  const { exp: _exp, ...noExp } = claims;
  const badAuthorizations = [
    undefined,
    "",
    "Bearer",
    "Bearer ",
    `Bearer ${t} extra`,
    `Basic ${t}`,
    `Token ${t}`,
    `Bearer${t}`,
    `Bearer ${t.split(".").slice(0, 2).join(".")}`,
    `Bearer ${t}.x`,
    `Bearer ${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}.`,
    `Bearer ${await craftToken(HS256_HEADER, claims, { hmac: "HS512" })}`,
    `Bearer ${await craftToken({ alg: "RS256", typ: "JWT" }, claims)}`,
    `Bearer ${await craftToken(HS256_HEADER, { ...claims, exp: nowSeconds() - 1 })}`,
    `Bearer ${await craftToken(HS256_HEADER, noExp)}`,
    `Bearer ${await craftToken(HS256_HEADER, { ...claims, exp: "soon" })}`,
    `Bearer ${await craftToken(HS256_HEADER, { ...claims, nbf: nowSeconds() + 3600 })}`,
    `Bearer ${await craftToken(HS256_HEADER, { ...claims, data: { userId: "x" } })}`,
    `Bearer ${await craftToken(HS256_HEADER, claims, { secret: "wrong-secret-wrong-secret-wrong-secret!!" })}`,
    // The payload edited to another user, the old signature kept.
    `Bearer ${t.split(".")[0]}.${b64url(JSON.stringify(claimsFor(bob.userId)))}.${t.split(".")[2]}`,
    `Bearer ${ghost.token}`,
    // API keys: unknown, revoked, expired, under another scheme.
    `Bearer wsk_${"A".repeat(43)}`,
    "Bearer wsk_",
    `Bearer ${revokedKey.key}`,
    `Bearer ${expiredKey.key}`,
    `Basic ${aliceKey.key}`,
    `Bearer ${"a".repeat(8 * 1024)}`,
    `Bearer ${"a".repeat(100 * 1024)}`,
  ];

  let counter = 0;
  return {
    ownParam(op, name) {
      if (name === "key") {
        return encodeURIComponent(op.id === "POST /api/files/{key}/delete" ? doomedKey : storedKey);
      }
      if (name === "linkId") return doomedLink.id;
      if (name === "orgId")
        return String((op.id === "POST /api/orgs/{orgId}/delete" ? doomedOrg : aliceOrg).id);
      if (name === "token") return linkPath(link.url).split("/").at(-1)!;
      if (op.path.startsWith("/api/auth/sessions/")) return sessionOf(spareSession.token);
      if (op.path.startsWith("/api/keys/")) return String(aliceKey.id);
      if (op.path.startsWith("/api/passkeys/")) {
        return String((op.path.endsWith("/delete") ? doomedPasskey : alicePasskey).id);
      }
      if (op.path.startsWith("/api/oauth/grants/")) return grantIdOf(spareGrant);
      if (op.path.startsWith("/api/admin/workspaces/")) return String(parkedWorkspace.id);
      if (op.path.startsWith("/api/chats/"))
        return op.path.endsWith("/delete") ? doomedChat.id : aliceChat.id;
      if (name === "userId" || op.path.startsWith("/api/users/")) return String(alice.userId);
      return String(aliceTodo);
    },
    foreignParams(op, name) {
      if (name === "key") return [encodeURIComponent(bobFileKey)];
      if (name === "linkId") return [bobLink.id];
      if (name === "orgId") return [String(bobOrg.id), "2147483647"];
      if (name === "token" || name === "uploadId") return [];
      const users = name === "userId" || op.path.startsWith("/api/users/");
      if (op.path.startsWith("/api/keys/")) return [String(bobKey.id), "2147483647"];
      if (op.path.startsWith("/api/passkeys/")) return [String(bobPasskey.id), "2147483647"];
      if (op.path.startsWith("/api/oauth/grants/")) return [grantIdOf(bobGrant)];
      if (op.path.startsWith("/api/chats/")) return [bobChat.id, "chat_AAAAAAAAAAAAAAAAAAAAAA"];
      // An admin may act on every workspace: only one never made is out of reach (404).
      if (op.path.startsWith("/api/admin/")) return ["2147483647"];
      return (users ? [bob.userId, ghost.userId] : [bobTodo, goneTodo]).map(String).concat("2147483647");
    },
    token: (op) =>
      adminOnly(op) ? admin.token : op.id === "POST /api/auth/logout" ? loggingOut.token : alice.token,
    sampledToken: (op) =>
      adminOnly(op) ? admin.token : op.id === "POST /api/auth/logout" ? sampledLogout.token : sampled.token,
    badAuthorizations,
    validToken: t,
    password: alice.password,
    storedKey,
    resetToken,
    fresh: () => `${(SEED >>> 0).toString(36)}_${(counter++).toString(36)}`,
  };
}

/** Operations only an admin may call: the fuzzer acts as one there, or every case would stop at the 403. */
const adminOnly = (op: Operation) => op.id === "POST /api/users" || op.path.startsWith("/api/admin/");

function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? "(none)"
      : typeof req.body === "string"
        ? JSON.stringify(
            req.body.length > 300 ? `${req.body.slice(0, 300)}… (${req.body.length} chars)` : req.body,
          )
        : `${req.body.length} bytes: ${JSON.stringify(new TextDecoder().decode(req.body.subarray(0, 200)))}`;
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [
      k,
      v.length > 120 ? `${v.slice(0, 120)}… (${v.length})` : v,
    ]),
  );
  return `${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 300)}…` : req.path}\n  headers: ${JSON.stringify(headers)}\n  body: ${body}`;
}

/** Sends `req`; its answer, its body's text and how long the whole answer took. */
async function timed(req: FuzzRequest) {
  const started = performance.now();
  const res = await request(req.path, { method: req.method, headers: req.headers, body: req.body });
  const text = new TextDecoder().decode(await res.arrayBuffer());
  return { res, text, ms: Math.round(performance.now() - started) };
}

/**
 * Whether the stored state is compared after each of a case's requests. A case whose requests must all
 * be refused is compared once, after its last (a snapshot of three databases, R2 and KV took twice as
 * long as a request); a change is then traced to its request by `culprit()`.
 */
const checkedEach = (fuzzCase: FuzzCase) => fuzzCase.expect !== "reject";

/**
 * Sends one fuzzed request and checks the answer and, for rejections, the stored state: after it, or
 * (`checkedEach` false) only when it is slow, since `state`, the snapshot before the case's first request.
 */
async function check(op: Operation, fuzzCase: FuzzCase, req: FuzzRequest, row: (typeof tally)[number]) {
  row.requests++;
  const { res, text, ms: firstMs } = await timed(req);
  let ms = firstMs;
  const slowRefusal = ms > MAX_MS && res.status >= 400;
  let changed: string | null = null;
  if (checkedEach(fuzzCase) || slowRefusal) {
    const after = await snapshotState();
    changed = res.status >= 400 ? stateDiff(state, after) : null;
    state = after;
  }
  if (slowRefusal && !changed) {
    // A refused request stored nothing, so it is sent again: a hang is slow twice, while one answer
    // held up by a starved machine (CI's 2 cores under three test lanes) is not.
    ms = Math.min(ms, (await timed(req)).ms);
    if (checkedEach(fuzzCase)) state = await snapshotState();
  }
  row.maxMs = Math.max(row.maxMs, ms);

  const type = res.headers.get("Content-Type") ?? "";
  // A download's body is the file; a 304 (`If-None-Match` on a download or a todo) has none.
  const isDownload =
    (op.id === "GET /api/download/{key}" && [200, 206].includes(res.status)) || res.status === 304;
  const problems: string[] = [];
  if (res.status >= 500) problems.push("5xx");
  if (fuzzCase.expect === "reject" && (res.status < 400 || res.status >= 500))
    problems.push("expected a 4xx");
  if (ms > MAX_MS) problems.push(`slower than ${MAX_MS} ms`);
  if (changed) {
    const since = checkedEach(fuzzCase) ? "" : " since the case's first request";
    problems.push(`rejected, yet stored state changed${since}: ${changed}`);
  }
  if (req.path.startsWith("/api/") && res.headers.get("X-Content-Type-Options") !== "nosniff") {
    problems.push("no nosniff");
  }
  if (!isDownload) {
    if (
      !/^application\/json; charset=utf-8$/i.test(type) &&
      !(type === "application/json" && !req.path.startsWith("/api/"))
    ) {
      problems.push(`content type ${type}`);
    }
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("body is not JSON");
    }
    const envelope =
      res.status >= 400
        ? body?.success === false && typeof body?.error?.message === "string"
        : body?.success === true && "data" in body;
    if (body !== undefined && !envelope) problems.push("not in the envelope");
  }
  if (res.status >= 400) row.rejected++;
  if (problems.length > 0) {
    throw new Error(
      `${op.id} [${fuzzCase.name}] ${problems.join(", ")} (FUZZ_SEED=${SEED})\n` +
        `request: ${describeRequest(req)}\n` +
        `answer: ${res.status} in ${ms} ms, ${type}: ${text.slice(0, 400)}`,
    );
  }
}

/**
 * The first of `requests` (a case's, every one refused) that changes the stored state when sent again
 * alone, or null.
 */
async function culprit(requests: FuzzRequest[]): Promise<string | null> {
  for (const req of requests) {
    const before = await snapshotState();
    const { res } = await timed(req);
    const changed = stateDiff(before, await snapshotState());
    if (changed) return `request: ${describeRequest(req)}\nanswer: ${res.status}, changed: ${changed}`;
  }
  return null;
}

/** Runs a case's requests through `check`; for a case checked once, compares the state after its last. */
async function runCase(op: Operation, fuzzCase: FuzzCase, row: (typeof tally)[number]) {
  const sent: FuzzRequest[] = [];
  await fc.assert(
    fc.asyncProperty(fuzzCase.arbitrary, (req) => {
      sent.push(req);
      return check(op, fuzzCase, req, row);
    }),
    { seed: seedFor(`${op.id} ${fuzzCase.name}`), numRuns: RUNS, endOnFailure: true },
  );
  if (checkedEach(fuzzCase)) return;
  const before = state;
  state = await snapshotState();
  const changed = stateDiff(before, state);
  // A table written and restored between the snapshots may hide one request's row behind another's
  // delete: each request is then sent again alone, and must leave the state as it found it.
  if (!changed && tablesWritten(before, state).length === 0) return;
  const found = await culprit(sent);
  state = await snapshotState();
  if (changed || found) {
    throw new Error(
      `${op.id} [${fuzzCase.name}] rejected, yet stored state changed: ${changed ?? "rows written, then restored"} ` +
        `(FUZZ_SEED=${SEED})\n${found ?? `none of its ${sent.length} requests changed it when sent again alone`}`,
    );
  }
}

// The fixture makes some 30 users, keys, passkeys, grants and files: a loaded machine takes past 10 s.
beforeAll(async () => {
  console.log(`openapi fuzz: FUZZ_SEED=${SEED}, ${RUNS} runs per case`);
  fixture = await buildFixture();
  state = await snapshotState();
}, 60_000);

afterAll(() => {
  const requests = tally.reduce((n, row) => n + row.requests, 0);
  const rejected = tally.reduce((n, row) => n + row.rejected, 0);
  const ops = new Set(tally.map((row) => row.op)).size;
  console.log(
    `openapi fuzz: ${ops} operations, ${tally.length} (operation, case) pairs x ${RUNS} runs = ${requests} requests ` +
      `(${rejected} rejected with a 4xx and the stored state unchanged, 0 5xx), FUZZ_SEED=${SEED}`,
  );
  const headers = tally.filter((row) => row.case.startsWith("hostile "));
  console.log(
    `openapi fuzz, hostile headers up to 16 KB: ${headers.length} (operation, case) pairs, ` +
      `${headers.reduce((n, row) => n + row.requests, 0)} requests, ` +
      `${headers.reduce((n, row) => n + row.rejected, 0)} rejected with the stored state unchanged, ` +
      `slowest ${Math.max(0, ...headers.map((row) => row.maxMs))} ms`,
  );
});

describe("openapi fuzz", () => {
  it("covers every operation of openapi.json", () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(28);
    for (const op of OPERATIONS) expect(casesFor(op, fixture).length, op.id).toBeGreaterThan(0);
  });

  it("the unmutated request of every JSON operation passes validation (so 400s come from the fuzzing)", async () => {
    for (const op of OPERATIONS.filter((o) => o.body?.kind === "json")) {
      const req = validRequest(op, fixture);
      const res = await request(req.path, { method: req.method, headers: req.headers, body: req.body });
      // Login with a made-up user, refresh with a made-up token and a passkey sign-in with a made-up
      // assertion are well-formed requests answered 401; a password-reset request is accepted (202)
      // for any address. A made-up passkey registration is refused (400): a real one needs an
      // authenticator's answer to a fresh challenge; so is an e-mail link with the fixture's token,
      // a reset link's (400): a real one comes by e-mail.
      const refused = ["POST /api/passkeys", "POST /api/auth/email/confirm"];
      // On a team the fixture's user owns: her own role is fixed (409), a made-up member is 404, and so is
      // a made-up invitation token.
      const teamState = [
        "POST /api/orgs/{orgId}/transfer",
        "POST /api/orgs/{orgId}/members/{userId}",
        "POST /api/invitations/accept",
      ];
      // The fixture's workspace for admins is marked as moving: a move of it is refused.
      const moving = ["POST /api/admin/workspaces/{id}/move"];
      const expected = refused.includes(op.id)
        ? [400]
        : teamState.includes(op.id)
          ? [404, 409]
          : moving.includes(op.id)
            ? [409]
            : [200, 201, 202, 401];
      expect(expected, `${op.id}: ${res.status} ${await res.text()}`).toContain(res.status);
    }
    state = await snapshotState();
  });

  it.each(OPERATIONS.map((op) => [op.id, op] as const))(
    "%s",
    async (_, op) => {
      for (const fuzzCase of casesFor(op, fixture)) {
        const row = { op: op.id, case: fuzzCase.name, requests: 0, rejected: 0, maxMs: 0 };
        tally.push(row);
        await runCase(op, fuzzCase, row);
      }
      // A loaded machine (CI beside other jobs) takes several times the unloaded 2-6 s per operation;
      // FUZZ_RUNS past the default 15 lengthens it in proportion.
    },
    60_000 * Math.max(1, RUNS / 15),
  );

  // Last: the writes it makes (valid requests succeed) would slow every later case's state snapshots.
  it(
    "V11 positive pass: requests sampled from openapi.json alone are refused only for reasons it states",
    async () => {
      const problems: string[] = [];
      let sent = 0;
      for (const op of OPERATIONS) {
        const s = sampler(seedFor(`${op.id} positive`));
        const requests = positiveRequests(op, fixture.sampledToken(op), s, POSITIVE_RUNS);
        if (!requests) problems.push(`${op.id}: the sampler found no value the document allows`);
        for (const req of requests ?? []) {
          const res = await request(req.path, { method: req.method, headers: req.headers, body: req.body });
          const text = await res.text();
          sent++;
          const json = res.headers.get("Content-Type")?.includes("application/json");
          const problem = positiveProblem(op, res.status, json ? JSON.parse(text) : undefined);
          if (problem) problems.push(`${op.id} ${problem}\n  request: ${describeRequest(req)}`);
        }
      }
      console.log(
        `openapi fuzz, positive pass: ${sent} requests sampled from openapi.json (${POSITIVE_RUNS} per operation ` +
          `and its edges), FUZZ_SEED=${SEED}`,
      );
      expect(problems).toEqual([]);
    },
    90_000 + POSITIVE_RUNS * 5_000,
  );
});
