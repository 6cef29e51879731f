import createClient, { type Middleware } from "openapi-fetch";
import { getSession, signOut } from "../auth/session";
import { API_ORIGIN } from "../config";
import { BOOKMARK_HEADER, currentBookmark, rememberBookmark } from "./bookmark";
import type { components, paths } from "./schema";

type ErrorEnvelope = components["schemas"]["Error"];

/** A failed call, carrying the service's own `error.message` for the person to read. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = getSession()?.token;
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    const bookmark = currentBookmark();
    if (bookmark) request.headers.set(BOOKMARK_HEADER, bookmark);
    return request;
  },
  onResponse({ request, response }) {
    rememberBookmark(response.headers.get(BOOKMARK_HEADER));
    // A token the service no longer accepts (expired, user deleted): back to the sign-in screen.
    if (response.status === 401 && request.headers.has("Authorization")) {
      signOut("Your session has ended. Please sign in again.");
    }
    return response;
  },
};

/** Typed from the service's openapi.json: paths, parameters, bodies and responses. */
export const api = createClient<paths>({ baseUrl: API_ORIGIN });
api.use(auth);

export function errorMessage(body: unknown, status: number): string {
  const message = (body as Partial<ErrorEnvelope> | undefined)?.error?.message;
  return typeof message === "string" && message ? message : `Request failed (HTTP ${status})`;
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
  throw new ApiError(errorMessage(result.error, result.response.status), result.response.status);
}

/** A link that downloads an object (public route; `/` inside the key travels as `%2F`). */
export function downloadUrl(key: string): string {
  return `${API_ORIGIN}/api/download/${encodeURIComponent(key)}`;
}
