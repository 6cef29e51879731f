import type { z } from "@hono/zod-openapi";
import { exports } from "cloudflare:workers";
import { successSchema } from "../../src/http/envelope";
import { freshIp } from "./client-ip";

export const BASE = "http://service.test";

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiInit extends Omit<RequestInit, "body"> {
  token?: string;
  /** Sent as JSON unless it is already a string, FormData, stream or bytes. */
  json?: unknown;
  body?: BodyInit | null;
}

/**
 * One request through the Worker's own fetch handler, exactly as a client sends it; from a fresh
 * client IP unless `CF-Connecting-IP` is given (tests of per-client limits set it).
 */
export async function request(path: string, init: ApiInit = {}): Promise<Response> {
  const { token, json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", freshIp());
  if (token) headers.set("Authorization", `Bearer ${token}`);
  let body = rest.body;
  if (json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(json);
  }
  return exports.default.fetch(new Request(new URL(path, BASE), { ...rest, headers, body }));
}

/** Like request(), with the body read and parsed when it is JSON. */
export async function api<T = unknown>(path: string, init: ApiInit = {}): Promise<ApiResult<T>> {
  return readResult<T>(await request(path, init));
}

/** A response's status, headers and body, parsed when it is JSON. */
export async function readResult<T = unknown>(res: Response): Promise<ApiResult<T>> {
  const text = await res.text();
  let body: unknown = text;
  if (res.headers.get("Content-Type")?.includes("application/json")) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as T, text };
}

/**
 * Asserts the status and the success envelope, checks `data` against the route's documented
 * response schema (so every such test also checks the OpenAPI contract), and returns `data` typed
 * by it. The body is returned as sent, not as parsed: fields the schema does not name stay visible.
 */
export function expectData<S extends z.ZodType>(result: ApiResult, status: number, schema: S): z.output<S> {
  const detail = `${result.status} ${result.text.slice(0, 300)}`;
  if (result.status !== status) throw new Error(`expected ${status}, got ${detail}`);
  const checked = successSchema(schema).safeParse(result.body);
  if (!checked.success) throw new Error(`not the documented body: ${checked.error.message}\n${detail}`);
  return (result.body as { data: z.output<S> }).data;
}

/** Paging values every paged route answers with 400 (docs/security.md, V7). */
export const BAD_PAGING = [
  "pageSize=0",
  "pageSize=101",
  "pageSize=-1",
  "pageSize=x",
  "page=0",
  "page=-1",
  "page=1.5",
  "page=abc",
  "page=10000000000",
];

export interface ErrorEnvelope {
  success: false;
  error: { message: string; issues?: { path: (string | number)[]; message: string }[] };
}

/** Asserts the failure envelope and returns its message. */
export function expectError(result: ApiResult, status: number, message?: string | RegExp) {
  const body = result.body as ErrorEnvelope;
  const detail = `${result.status} ${result.text.slice(0, 300)}`;
  if (result.status !== status) throw new Error(`expected ${status}, got ${detail}`);
  if (typeof body !== "object" || body?.success !== false || typeof body.error?.message !== "string") {
    throw new Error(`not an error envelope: ${detail}`);
  }
  if (message instanceof RegExp && !message.test(body.error.message))
    throw new Error(`message mismatch: ${detail}`);
  if (typeof message === "string" && body.error.message !== message)
    throw new Error(`message mismatch: ${detail}`);
  return body.error;
}
