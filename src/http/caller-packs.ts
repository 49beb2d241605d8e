// The packs visible to the caller of a request: public ones plus their organisation's private ones.
import type { Context } from "hono";
import type { AppEnv } from "./context.ts";
import { findMembership, type Membership } from "../billing/membership.ts";
import { visiblePacks } from "../packs/visible.ts";
import type { Pack } from "../packs/types.ts";

/** Packs for a known organisation (or public packs only when `orgId` is null). */
export async function packsForOrg(c: Context<AppEnv>, orgId: string | null): Promise<Pack[]> {
  return visiblePacks(c.env, c.get("config").publicPackPrefix, orgId);
}

/**
 * Packs for the authenticated caller, with their organisation's. Reads that need no credits keep
 * working from public packs when the caller has no organisation yet or the database is unreachable.
 */
export async function packsForCaller(c: Context<AppEnv>): Promise<Pack[]> {
  return packsForOrg(c, await callerOrgId(c));
}

/** The caller's membership, looked up once per request; database errors propagate to the caller. */
export function callerMembership(c: Context<AppEnv>): Promise<Membership | undefined> {
  let pending = c.get("callerMembership");
  if (!pending) {
    pending = findMembership({ db: c.get("services").db(), userId: c.get("principal").userId });
    c.set("callerMembership", pending);
  }
  return pending;
}

/** The caller's organisation id; null before post-signup, or when the database cannot say (logged). */
export async function callerOrgId(c: Context<AppEnv>): Promise<string | null> {
  try {
    return (await callerMembership(c))?.orgId ?? null;
  } catch (err) {
    c.get("services").log.warn("organisation lookup failed; serving public packs only", { error: err });
    return null;
  }
}
