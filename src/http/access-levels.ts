// The access levels a route may declare, and the registry route() reads them from: the middleware that
// enforce them (requireAuth, requireOrg(), requireRole(): src/request/access.ts) register themselves here.
import type { MiddlewareHandler } from "hono";

/** What a route needs of its caller, weakest first. */
export const ACCESS_LEVELS = ["authenticated", "organisation", "admin"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

const declared = new WeakMap<MiddlewareHandler, Access>();

/** Marks `middleware` as granting `access`, so route() documents and orders it. */
export function declareAccess<M extends MiddlewareHandler>(access: Access, middleware: M): M {
  declared.set(middleware, access);
  return middleware;
}

/** The access a middleware grants when declared on a route, if it is one of these. */
export function accessOf(middleware: unknown): Access | undefined {
  return typeof middleware === "function" ? declared.get(middleware as MiddlewareHandler) : undefined;
}
