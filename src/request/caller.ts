// The caller of a request, resolved once: their membership (shared by requireOrg, requireRole and the
// rate limiter), from the per-isolate membership cache unless the route needs it fresh, and the packs they may read.
import type { Principal } from "../auth/jwt.ts";
import { classifyDbError } from "../db/errors.ts";
import { UnavailableError } from "../errors.ts";
import { type Membership, findMembership } from "../orgs/membership.ts";
import { membershipCache } from "../orgs/membership-cache.ts";
import type { PackArea } from "../packs/request-pages.ts";
import type { Pack } from "../packs/types.ts";
import type { VisiblePacks } from "../packs/open-pack.ts";
import type { Services } from "./context.ts";

/** What these helpers read of a request's context (any route's context after requireAuth). */
export interface CallerContext {
  var: { services: Services; principal: Principal };
}

// Keyed by the request's services object, which lives exactly as long as the request.
const lookups = new WeakMap<Services, Promise<Membership | undefined>>();

/**
 * The caller's membership. `fresh`: read the database even when the cache knows it (owner/admin routes, so a
 * demotion or removal made through another isolate counts at once). Database errors propagate to the caller.
 */
export function callerMembership(c: CallerContext, { fresh = false } = {}): Promise<Membership | undefined> {
  const { services, principal } = c.var;
  const pending = lookups.get(services);
  if (pending) return pending;
  const cached = fresh ? undefined : membershipCache.get(principal.userId);
  const lookup = cached
    ? Promise.resolve(cached)
    : findMembership({ db: services.db(), userId: principal.userId }).then((m) => {
        if (m) membershipCache.set(m);
        else membershipCache.forget(principal.userId);
        return m;
      });
  lookups.set(services, lookup);
  return lookup;
}

/** After a membership changed through this isolate: the next request of that user reads it again. */
export function forgetMembership(userId: string): void {
  membershipCache.forget(userId);
}

/**
 * The caller's organisation id; null before post-signup. A database that cannot say is 503: answering without
 * the organisation's packs would be a wrong answer (its lots missing, its pack "not found"), not a degraded one.
 */
export async function callerOrgId(c: CallerContext): Promise<string | null> {
  try {
    return (await callerMembership(c))?.orgId ?? null;
  } catch (err) {
    const sorted = classifyDbError(err);
    if (!(sorted instanceof UnavailableError)) throw sorted;
    throw new UnavailableError("database (organisation lookup)", { cause: err, detail: "Service unavailable" });
  }
}

/** Packs for the authenticated caller, with their organisation's (public only before post-signup), and the pages of v2 packs `areas` need. */
export async function packsForCaller(c: CallerContext, areas?: readonly PackArea[]): Promise<Pack[]> {
  return c.var.services.packs.forOrg(await callerOrgId(c), areas);
}

/** Every pack the caller may read, their organisation's first (what a site search reads). */
export async function visibleForCaller(c: CallerContext): Promise<VisiblePacks> {
  return c.var.services.packs.visible(await callerOrgId(c));
}

/**
 * As packsForCaller, but public packs only when the database is unreachable (logged): for geocode, whose
 * place names come from the public packs and whose limiter keeps counting without the database.
 */
export async function packsForCallerOrPublic(c: CallerContext, areas?: readonly PackArea[]): Promise<Pack[]> {
  return c.var.services.packs.forOrg(await orgIdOrPublic(c), areas);
}

/** As packsForCallerOrPublic, the list itself (suggestions read v2 packs by suburb). */
export async function visibleForCallerOrPublic(c: CallerContext): Promise<VisiblePacks> {
  return c.var.services.packs.visible(await orgIdOrPublic(c));
}

async function orgIdOrPublic(c: CallerContext): Promise<string | null> {
  try {
    return await callerOrgId(c);
  } catch (err) {
    if (!(err instanceof UnavailableError)) throw err;
    c.var.services.log.warn("organisation lookup failed; serving public packs only", { error: err });
    return null;
  }
}
