// The one path for paid work: reserve (charge) -> do the work -> settle with what was delivered (refund the rest).
import type { SQL } from "drizzle-orm";
import type { Db, DbHandle } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { refusalError } from "./refusal.ts";
import type { ActionType } from "./entry.ts";
import { UNIT_PRICE } from "./prices.ts";
import { settleOnOwnConnection, type SettleOutcome } from "./detached.ts";
import { openJob, settleJob, type OpenJobResult } from "./jobs.ts";
import { holdLease, type Lease } from "./lease.ts";
import { JOB_TIMEOUT_MS } from "./timeouts.ts";

/** Who pays and where settlement writes: the request's pool to charge, a connection of its own to settle. */
export interface Payer {
  db: Db;
  orgId: string;
  userId: string | null;
  /** Settlement must not depend on the request's sockets, which a departing client takes with it. */
  openOwnDb: () => DbHandle;
  log: Logger;
}

export interface WorkOrder {
  /** Sets the unit price (the price table) and how long the work may run before the sweep settles it. */
  action: ActionType;
  units: number;
  /** A retry under the same key is charged once and gets the same job; omitted, every call is new work. */
  key?: string | undefined;
  description: string;
}

export interface ChargedWork {
  /** The job id: the ledger entries of this work name it. */
  id: string;
  units: number;
  /** Credits debited for all the units. */
  charged: number;
  /** The organisation's balance right after the debit (for a replay, as it is now). */
  balance: number;
  /** Nothing new was charged: the key's work is paid and delivered, or still running (`running`). */
  replayed: boolean;
  /** The paying organisation's name, read by the charge itself (so work that prints it needs no other read). */
  payerName: string;
  /**
   * Settles once with the units delivered (refunding the rest); later calls return the first outcome.
   * `alongside`: the work's own record of what it delivered, written in the settlement's statement; `why`: why
   * the rest was not delivered, for the refund entry. Never throws: a failure is logged here and the sweep settles
   * the job from its row.
   */
  settle(delivered: number, alongside?: SQL, why?: string): Promise<SettleOutcome>;
}

/** Work reserved under a key: what earlier requests under it paid for, and a lease to hold while streaming. */
export interface ResumableWork extends ChargedWork {
  /** The key's first job: the id of the work as a whole. */
  firstId: string;
  /** Units earlier requests paid for and took: the first ones in order, delivered again free. */
  paidUnits: number;
  /** A replay of work another request is still delivering: it has no unpaid units to charge yet. */
  running: boolean;
  /** Renews the job's deadline and records progress while its work streams (settle() ends nothing: call stop()). */
  lease(): Lease;
}

/** How long the request's own connection gets to settle before a fresh one is tried. */
export const REQUEST_SETTLE_TIMEOUT_MS = 2_000;

/**
 * On the request's connection first (no new handshake); when that fails or hangs (a departed client can take
 * its sockets along), on fresh connections with retries. Settling is idempotent, so a late first attempt is harmless.
 */
async function settleOnce(
  payer: Payer,
  jobId: string,
  delivered: number,
  alongside: SQL | undefined,
  why: string | undefined,
): Promise<SettleOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the request's connection did not answer")), REQUEST_SETTLE_TIMEOUT_MS);
    });
    const settlement = await Promise.race([
      settleJob(payer.db, { jobId, unitsDone: delivered, by: "request", alongside, why }),
      timeout,
    ]);
    return { ok: true, settlement };
  } catch {
    return settleOnOwnConnection(payer.openOwnDb, { jobId, unitsDone: delivered, alongside, why });
  } finally {
    clearTimeout(timer);
  }
}

/** Charges for the work, or answers why not without writing anything. */
export async function tryReserve(
  payer: Payer,
  order: WorkOrder,
): Promise<{ ok: true; work: ResumableWork } | Exclude<OpenJobResult, { ok: true }>> {
  const opened = await openJob(payer.db, {
    orgId: payer.orgId,
    userId: payer.userId,
    action: order.action,
    units: order.units,
    unitPrice: UNIT_PRICE[order.action],
    idempotencyKey: order.key ?? `${order.action}:${crypto.randomUUID()}`,
    description: order.description,
    timeoutMs: JOB_TIMEOUT_MS[order.action],
  });
  if (!opened.ok) return opened;
  const { job, replayed, orgName } = opened;
  let settling: Promise<SettleOutcome> | undefined;
  const work: ResumableWork = {
    id: job.id,
    units: job.units,
    charged: job.charged,
    balance: opened.balance,
    replayed,
    payerName: orgName,
    firstId: opened.firstJobId,
    paidUnits: opened.paidUnits,
    running: replayed && job.status === "charged",
    lease: () =>
      holdLease(payer.db, {
        jobId: job.id,
        settleAfter: new Date(job.settleAfter),
        timeoutMs: JOB_TIMEOUT_MS[order.action],
        log: payer.log,
      }),
    settle(delivered, alongside, why) {
      settling ??= settleOnce(payer, job.id, delivered, alongside, why).then((outcome) => {
        if (!outcome.ok)
          payer.log.error("settlement deferred to the sweep", {
            job_id: job.id,
            action: job.action,
            error: outcome.error,
          });
        return outcome;
      });
      return settling;
    },
  };
  return { ok: true, work };
}

/** Charges for the work or throws the structured 402 (nothing written). */
export async function reserve(payer: Payer, order: WorkOrder): Promise<ResumableWork> {
  const reserved = await tryReserve(payer, order);
  if (!reserved.ok) throw refusalError(reserved);
  return reserved.work;
}

/** Work charged to nobody (the example report, benchmarks): settling it records the units delivered. */
export function offlineWork(id: string, charged = 0, payerName = ""): ChargedWork & { delivered: number[] } {
  const delivered: number[] = [];
  return {
    id,
    units: 1,
    charged,
    balance: 0,
    replayed: false,
    payerName,
    delivered,
    async settle(units) {
      delivered.push(units);
      return { ok: false, error: new Error("offline work is not in the ledger") };
    },
  };
}
