// Who may call a route, declared in its `middleware`: requireAuth, then requireOrg() or requireRole().
// Each puts what it resolved on the context (principal, membership); route() reads the declaration
// to document security and errors in the OpenAPI document (`x-access`), which the auth suite follows.
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { bearerToken, verifyAccessToken } from "../auth/jwt.ts";
import { NO_ORGANISATION, isBillingAdmin } from "../orgs/membership.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { callerMembership } from "./caller.ts";
import type { AuthEnv, OrgEnv } from "./context.ts";
import { declareAccess as declare } from "../http/access-levels.ts";

/** A valid bearer token: the caller becomes `c.var.principal`. */
export const requireAuth = declare(
  "authenticated",
  createMiddleware<AuthEnv>(async function requireAuth(c, next) {
    const token = bearerToken(c.req.header("Authorization"));
    c.set("principal", await verifyAccessToken(token, c.var.config.auth));
    await next();
  }),
);

const orgMember = declare(
  "organisation",
  createMiddleware<OrgEnv>(async function requireOrg(c, next) {
    const membership = await callerMembership(c);
    // Before POST /auth/post-signup the caller has no organisation: say what to do.
    if (!membership) throw new NotFoundError(NO_ORGANISATION);
    c.set("membership", membership);
    await next();
  }),
);

/** The caller belongs to an organisation: `c.var.membership` (404 before post-signup). After requireAuth. */
export function requireOrg(): MiddlewareHandler<OrgEnv> {
  return orgMember;
}

const billingAdmin = declare(
  "admin",
  createMiddleware<OrgEnv>(async function requireAdmin(c, next) {
    // Fresh, not cached: a demotion made through another isolate must count at once.
    const membership = await callerMembership(c, { fresh: true });
    if (!membership) throw new NotFoundError(NO_ORGANISATION);
    if (!isBillingAdmin(membership.role)) throw new ForbiddenError("Billing admin access required");
    c.set("membership", membership);
    await next();
  }),
);

/** requireOrg() and a role: "admin" admits owners and admins (403 for members). After requireAuth. */
export function requireRole(role: "admin"): MiddlewareHandler<OrgEnv> {
  if (role !== "admin") throw new Error(`requireRole: unknown role ${String(role)}`);
  return billingAdmin;
}
