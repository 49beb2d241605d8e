// The packs visible to the caller of a request: public ones plus their organisation's private ones.
import type { Context } from "hono";
import type { AppEnv } from "./context.ts";
import { findMembership } from "../billing/membership.ts";
import { visiblePacks } from "../packs/visible.ts";
import type { Pack } from "../packs/types.ts";

/** Packs for a known organisation (or public packs only when `orgId` is null). */
export async function packsForOrg(c: Context<AppEnv>, orgId: string | null): Promise<Pack[]> {
  return visiblePacks(c.env, c.get("config").publicPackPrefix, orgId);
}

/**
 * Packs for the authenticated caller, looking up their organisation. Reads that need no credits keep
 * working from public packs when the caller has no organisation yet or the database is unreachable.
 */
export async function packsForCaller(c: Context<AppEnv>): Promise<Pack[]> {
  let orgId: string | null = null;
  try {
    orgId = (await findMembership({ db: c.get("services").db(), userId: c.get("principal").userId }))?.orgId ?? null;
  } catch (err) {
    console.error("organisation lookup failed; serving public packs only", err instanceof Error ? err.message : err);
  }
  return packsForOrg(c, orgId);
}
