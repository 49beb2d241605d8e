// Settling from work that may outlive its request: each attempt on a connection of its own, never the request's.
import type { DbHandle } from "../db/client.ts";
import { settleJob, type SettleInput, type Settlement } from "./jobs.ts";

/** Pauses before each retry; the sweep takes over once these are spent. */
export const SETTLE_RETRY_DELAYS_MS = [300, 1_000, 3_000] as const;

export type SettleOutcome = { ok: true; settlement: Settlement } | { ok: false; error: unknown };

/**
 * Settles `jobId` on a freshly opened connection, retrying on a new one after a failure. A client that
 * disconnected takes the request's sockets with it; a connection opened here does not depend on them.
 */
export async function settleOnOwnConnection(
  open: () => DbHandle,
  args: Pick<SettleInput, "jobId" | "unitsDone" | "alongside" | "why">,
  delays: readonly number[] = SETTLE_RETRY_DELAYS_MS,
): Promise<SettleOutcome> {
  let error: unknown;
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, delays[attempt - 1]));
    const handle = open();
    try {
      return { ok: true, settlement: await settleJob(handle.db, { ...args, by: "request" }) };
    } catch (err) {
      error = err;
    } finally {
      await handle.close().catch(() => {});
    }
  }
  return { ok: false, error };
}
