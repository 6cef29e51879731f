import type { Context } from "hono";
import { METHOD_NAME_ALL } from "hono/router";
import { matchedRoutes } from "hono/route";
import type { ApiKeyScope } from "../db/credentials-schema";
import type { AppRouter } from "./create-app";

/** The OpenAPI security scheme of API keys; its scopes on an operation are what a key needs there. */
export const API_KEY_SCHEME = "apiKey";

/** `security` of an operation that API keys may call with `scopes` (none listed: any key); sign-ins always may. */
export function keyAccess(...scopes: ApiKeyScope[]): { security: Record<string, string[]>[] } {
  return { security: [{ bearerAuth: [] }, { [API_KEY_SCHEME]: scopes }] };
}

/**
 * The route a request matched and the API key scopes it takes: `null` when no route matched (the
 * answer is a 404), `keys: false` for operations without the apiKey scheme (sign-in only). Read from
 * the app's own OpenAPI registry, so what the document says is what the gate does.
 */
export type RouteAccess = { keys: false } | { keys: true; scopes: readonly ApiKeyScope[] } | null;

export function routeAccessOf(app: AppRouter): (c: Context) => RouteAccess {
  let table: Map<string, readonly ApiKeyScope[] | undefined> | undefined;
  const build = () => {
    const built = new Map<string, readonly ApiKeyScope[] | undefined>();
    for (const definition of app.openAPIRegistry.definitions) {
      if (definition.type !== "route") continue;
      const { method, path, security } = definition.route;
      // @hono/zod-openapi registers `/todos/{id}` with hono as `/todos/:id`.
      const honoPath = path.replaceAll(/\/{(.+?)}/g, "/:$1");
      const scopes = security?.find((requirement) => API_KEY_SCHEME in requirement)?.[API_KEY_SCHEME];
      // Only keyAccess() writes the scheme, with scopes typed there.
      built.set(`${method.toUpperCase()} ${honoPath}`, scopes as ApiKeyScope[] | undefined);
    }
    return built;
  };
  return (c) => {
    const route = matchedRoutes(c).findLast((r) => r.method !== METHOD_NAME_ALL);
    if (!route) return null;
    table ??= build();
    const scopes = table.get(`${route.method} ${route.path}`);
    return scopes === undefined ? { keys: false } : { keys: true, scopes };
  };
}

/** An operation as the app's OpenAPI registry holds it. */
export type RegisteredRoute = Extract<
  AppRouter["openAPIRegistry"]["definitions"][number],
  { type: "route" }
>["route"];

const escapeRegExp = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether a path is one of the app's operations that `holds` picks, by path alone (any method): a path
 * parameter is exactly one non-empty segment (a `/` inside a key arrives as %2F). Read from the app's
 * OpenAPI registry on first use, when every route is registered, so the route's own declaration is the
 * one place that says so.
 */
export function pathsWhere(
  app: AppRouter,
  holds: (route: RegisteredRoute) => boolean,
): (path: string) => boolean {
  let paths: RegExp | undefined;
  const build = () => {
    const patterns = app.openAPIRegistry.definitions.flatMap((definition) =>
      definition.type === "route" && holds(definition.route)
        ? [
            definition.route.path
              .split(/\{.+?\}/)
              .map(escapeRegExp)
              .join("[^/]+"),
          ]
        : [],
    );
    return new RegExp(`^(?:${patterns.join("|")})$`);
  };
  return (path) => {
    paths ??= build();
    return paths.test(path);
  };
}
