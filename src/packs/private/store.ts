// Organisation-private packs in R2 under orgs/{org_id}/, and the Durable Object told of every change at once.
import { AppError, UnavailableError } from "../../errors.ts";
import type { PackBindings } from "../types.ts";

export const privatePrefix = (orgId: string) => `orgs/${orgId}/`;
export const privateKey = (orgId: string, packId: string) => `${privatePrefix(orgId)}${packId}.pack`;

/** R2 or the pack Durable Object failing is an outage (503 Service unavailable), not a bug in the request (500). */
export async function packStorage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new UnavailableError("pack storage", { cause: err, detail: "Service unavailable" });
  }
}

const stubOf = (bindings: PackBindings, orgId: string) =>
  bindings.PRIVATE_PACKS.get(bindings.PRIVATE_PACKS.idFromName(orgId));

/** Drops the organisation's cached list so the next request of any isolate reads R2 again. */
export async function invalidatePrivatePacks(bindings: PackBindings, orgId: string): Promise<void> {
  await stubOf(bindings, orgId).invalidate();
}

/** Takes one of the organisation's `max` pack slots for `key`; false when they are all taken. */
export function reservePackSlot(bindings: PackBindings, orgId: string, key: string, max: number): Promise<boolean> {
  return stubOf(bindings, orgId).reserve(orgId, key, max);
}

/** Gives back the slot of `key` (stored or failed) and makes every isolate see the change at once. */
export function releasePackSlot(bindings: PackBindings, orgId: string, key: string): Promise<void> {
  return stubOf(bindings, orgId).release(key);
}
