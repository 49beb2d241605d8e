// One site scored through the charged-job path a batch row takes: charge 1 unit, score, settle.
import { siteFacts } from "../assess/facts.ts";
import { refusalError } from "../billing/charge.ts";
import { PRICES } from "../billing/prices.ts";
import type { Db } from "../db/client.ts";
import type { ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { scoreSite } from "../scoring/index.ts";
import { openJob, settleJob } from "../settlement/jobs.ts";
import { JOB_TIMEOUT_MS } from "../settlement/timeouts.ts";
import { parcelFacts } from "./facts.ts";

export interface ScoreSiteContext {
  db: Db;
  orgId: string;
  userId: string;
  packs: readonly Pack[];
}

/** Charges 0.1 credit once per key (a 402 when short, before any work), scores, settles the one unit as done. */
export async function scoreOneSite(ctx: ScoreSiteContext, parcel: ParcelHit, idempotencyKey: string) {
  const facts = siteFacts(ctx.packs, parcel);
  const result = scoreSite(facts);
  const opened = await openJob(ctx.db, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    action: "batch_score",
    units: 1,
    unitPrice: PRICES.batchScorePerRow,
    idempotencyKey,
    description: `Scoring of site ${parcel.lotId ?? `${parcel.centroid[0]}, ${parcel.centroid[1]}`}`,
    timeoutMs: JOB_TIMEOUT_MS.batch_score,
  });
  if (!opened.ok) throw refusalError(opened);
  const settled = await settleJob(ctx.db, { jobId: opened.job.id, unitsDone: 1, by: "request" });
  return {
    parcel: parcelFacts(ctx.packs, parcel, facts),
    result,
    charged: opened.job.charged,
    balance: settled.balance,
    replayed: opened.replayed,
    jobId: opened.job.id,
  };
}
