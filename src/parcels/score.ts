// One site scored through the charged-job path of a batch row: charge 1 unit, score, settle (refund if it failed).
import { siteFacts } from "../assess/facts.ts";
import { refusalError } from "../billing/charge.ts";
import { PRICES } from "../billing/prices.ts";
import type { Db } from "../db/client.ts";
import type { Pack } from "../packs/types.ts";
import { scoreSite } from "../scoring/index.ts";
import { openJob, settleJob } from "../settlement/jobs.ts";
import { JOB_TIMEOUT_MS } from "../settlement/timeouts.ts";
import { parcelPayload, scorePayload } from "../batch/payload.ts";
import { locateParcel, type SiteRef } from "./locate.ts";

export interface ScoreParcelInput {
  db: Db;
  orgId: string;
  userId: string;
  packs: readonly Pack[];
  site: SiteRef;
  /** The client's Idempotency-Key, if any: a retry under it is charged once. */
  idempotencyKey?: string;
}

function siteKey(site: SiteRef): string {
  return "lot_id" in site ? `lot:${site.lot_id.trim()}` : `pt:${site.lng},${site.lat}`;
}

/** Locates (free: a miss is a 404 before any charge), charges 0.1, scores and settles before answering. */
export async function scoreParcel(input: ScoreParcelInput) {
  const parcel = locateParcel(input.packs, input.site);
  const key = input.idempotencyKey
    ? `parcel-score:${input.idempotencyKey}:${siteKey(input.site)}`
    : `parcel-score:${crypto.randomUUID()}`;
  const opened = await openJob(input.db, {
    orgId: input.orgId,
    userId: input.userId,
    action: "batch_score",
    units: 1,
    unitPrice: PRICES.batchScorePerRow,
    idempotencyKey: key,
    description: `Scoring of ${parcel.lotId ?? "one site"}`,
    timeoutMs: JOB_TIMEOUT_MS.batch_score,
  });
  if (!opened.ok) throw refusalError(opened);
  let result: ReturnType<typeof scoreSite>;
  try {
    result = scoreSite(siteFacts(input.packs, parcel));
  } catch (err) {
    await settleJob(input.db, { jobId: opened.job.id, unitsDone: 0, by: "request" });
    throw err;
  }
  const settled = await settleJob(input.db, { jobId: opened.job.id, unitsDone: 1, by: "request" });
  return {
    job_id: opened.job.id,
    parcel: parcelPayload(parcel),
    ...scorePayload(result),
    charged: opened.job.charged - settled.refunded,
    balance: settled.balance,
    replayed: opened.replayed,
  };
}
