import createClient, { type Middleware } from "openapi-fetch";
import { freshToken, refreshSession, SESSION_ENDED_NOTICE } from "../auth/refresh";
import { getSession, signOut } from "../auth/session";
import { API_ORIGIN } from "../config";
import { BOOKMARK_HEADER, currentBookmark, rememberBookmark } from "./bookmark";
import type { components, paths } from "./schema";

type ErrorEnvelope = components["schemas"]["Error"];
type Issue = components["schemas"]["ValidationIssue"];

/**
 * A failed call with the service's own `error.message` and validation `issues`: developer words,
 * which `humanError` turns into a person's. Each one is logged to the console for whoever debugs.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = "ApiError";
    console.warn(`API error ${status}: ${message}`);
  }
}

// A copy of each signed request as it was before it was sent, to send again after a refresh.
const unsent = new WeakMap<Request, Request>();

const auth: Middleware = {
  async onRequest({ request }) {
    const token = await freshToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    const bookmark = currentBookmark();
    if (bookmark) request.headers.set(BOOKMARK_HEADER, bookmark);
    if (token) unsent.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response }) {
    rememberBookmark(response.headers.get(BOOKMARK_HEADER));
    const copy = unsent.get(request);
    if (response.status !== 401 || !copy) return response;
    // The token was refused (it lapsed while the tab slept, or was revoked): refresh once, silently,
    // unless another call already has, and send the same request again. A refused refresh signs out.
    const current = getSession()?.token;
    const token =
      current && copy.headers.get("Authorization") !== `Bearer ${current}` ? current : await refreshSession();
    if (!token) return response;
    copy.headers.set("Authorization", `Bearer ${token}`);
    const retried = await fetch(copy);
    rememberBookmark(retried.headers.get(BOOKMARK_HEADER));
    if (retried.status === 401) signOut(SESSION_ENDED_NOTICE);
    return retried;
  },
};

/** Typed from the service's openapi.json: paths, parameters, bodies and responses. */
export const api = createClient<paths>({ baseUrl: API_ORIGIN });
api.use(auth);

export function errorMessage(body: unknown, status: number): string {
  const message = (body as Partial<ErrorEnvelope> | undefined)?.error?.message;
  return typeof message === "string" && message ? message : `Request failed (HTTP ${status})`;
}

/** The ApiError of a failed answer's body (the envelope, or anything else a proxy sent). */
export function apiError(body: unknown, status: number): ApiError {
  const issues = (body as Partial<ErrorEnvelope> | undefined)?.error?.issues;
  return new ApiError(errorMessage(body, status), status, Array.isArray(issues) ? issues : []);
}

/**
 * The `data` of a success envelope, or an ApiError with the envelope's message.
 * Network failures (service down, CORS refused) become an ApiError with status 0.
 */
export async function unwrap<T>(
  call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(`Cannot reach the service at ${API_ORIGIN}`, 0);
  }
  if (result.data) return result.data.data;
  throw apiError(result.error, result.response.status);
}

/** A link that downloads an object (public route; `/` inside the key travels as `%2F`). */
export function downloadUrl(key: string): string {
  return `${API_ORIGIN}/api/download/${encodeURIComponent(key)}`;
}
