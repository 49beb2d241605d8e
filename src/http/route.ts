// Every route is declared with route(): its access middleware (requireAuth, requireOrg(), requireRole())
// becomes the OpenAPI security, the errors that access can cause and `x-access`, which the shared auth
// suite reads; body parsing is added after that middleware, so authentication and role come first.
import { type RouteConfig, createRoute } from "@hono/zod-openapi";
import { ACCESS_LEVELS, type Access, accessOf } from "./access.ts";
import { parseFormBody, parseJsonBody } from "./body.ts";
import { accessErrors, bearerSecurity } from "./openapi.ts";

function asArray<T>(v: T | readonly T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? [...(v as readonly T[])] : [v as T];
}

/** The strongest access the middleware declares; fails at start-up when it is declared out of order. */
function accessFrom(route: string, middleware: readonly unknown[]): Access | undefined {
  let access: Access | undefined;
  for (const m of middleware) {
    const a = accessOf(m);
    if (!a) continue;
    if (a !== "authenticated" && access === undefined) {
      throw new Error(`${route}: requireAuth must come before requireOrg()/requireRole()`);
    }
    if (!access || ACCESS_LEVELS.indexOf(a) > ACCESS_LEVELS.indexOf(access)) access = a;
  }
  return access;
}

function bodyParsers(config: RouteConfig) {
  const body = config.request?.body;
  const types = body && "content" in body ? Object.keys(body.content) : [];
  return [
    ...(types.some((t) => t.includes("json")) ? [parseJsonBody] : []),
    ...(types.some((t) => t.startsWith("multipart/form-data") || t.startsWith("application/x-www-form-urlencoded"))
      ? [parseFormBody]
      : []),
  ];
}

/** createRoute() for this app. Write `middleware` inline (no `as const`) so handlers see what it adds. */
export function route<const R extends RouteConfig>(config: R): R {
  const middleware = asArray(config.middleware);
  const access = accessFrom(`${config.method.toUpperCase()} ${config.path}`, middleware);
  const secured = access ? { security: bearerSecurity, "x-access": access } : {};
  return createRoute({
    ...config,
    ...secured,
    middleware: [...middleware, ...bodyParsers(config)],
    responses: { ...(access ? accessErrors[access] : {}), ...config.responses },
  }) as unknown as R;
}
