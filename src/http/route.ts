// Every route is declared with route(): its access middleware (requireAuth, requireOrg(), requireRole())
// becomes the OpenAPI security, the errors that access can cause and `x-access`, which the shared auth
// suite reads; body parsing is added after that middleware, so authentication and role come first.
import { type RouteConfig, createRoute } from "@hono/zod-openapi";
import { ACCESS_LEVELS, type Access, accessOf } from "./access-levels.ts";
import { DEFAULT_MAX_JSON_BYTES, jsonBodyLimit, parseFormBody, parseJsonBody, requireJsonType } from "./body.ts";
import { accessErrors, bearerSecurity, pickErrors } from "./openapi.ts";

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

function bodyTypes(config: RouteConfig): string[] {
  const body = config.request?.body;
  return body && "content" in body ? Object.keys(body.content) : [];
}

/** A required body that may only be JSON: other media types are refused with 415. */
function jsonOnly(config: RouteConfig): boolean {
  const types = bodyTypes(config);
  return config.request?.body?.required === true && types.length > 0 && types.every((t) => t.includes("json"));
}

function bodyParsers(config: RouteConfig, maxBodyBytes: number) {
  const types = bodyTypes(config);
  return [
    ...(jsonOnly(config) ? [requireJsonType] : []),
    ...(types.some((t) => t.includes("json")) ? [jsonBodyLimit(maxBodyBytes), parseJsonBody] : []),
    ...(types.some((t) => t.startsWith("multipart/form-data") || t.startsWith("application/x-www-form-urlencoded"))
      ? [parseFormBody]
      : []),
  ];
}

/**
 * createRoute() for this app. Write `middleware` inline (no `as const`) so handlers see what it adds.
 * A JSON body is capped at `maxBodyBytes` (default DEFAULT_MAX_JSON_BYTES), after access and rate limits.
 */
export function route<const R extends RouteConfig>(withLimit: R & { maxBodyBytes?: number }): R {
  const { maxBodyBytes = DEFAULT_MAX_JSON_BYTES, ...config } = withLimit;
  const middleware = asArray(config.middleware);
  const access = accessFrom(`${config.method.toUpperCase()} ${config.path}`, middleware);
  const secured = access ? { security: bearerSecurity, "x-access": access } : {};
  return createRoute({
    ...config,
    ...secured,
    middleware: [...middleware, ...bodyParsers(config, maxBodyBytes)],
    responses: {
      ...(access ? accessErrors[access] : {}),
      ...(jsonOnly(config) ? pickErrors(413, 415) : {}),
      ...config.responses,
    },
  }) as unknown as R;
}
