// One site scored through the one charged-work path: charge 1 unit, score, settle (refunded if it failed).
import { siteFacts } from "./facts.ts";
import type { Pack } from "../packs/types.ts";
import { scoreSite } from "../scoring/index.ts";
import { reserve, type Payer } from "../credits/charged-work.ts";
import { workKey } from "../credits/work-key.ts";
import { parcelPayload, scorePayload } from "./site-payload.ts";
import { locateParcel, type SiteRef } from "./locate-lot.ts";
import { valueOfScored } from "./site-value.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";

export interface ScoreParcelInput {
  payer: Payer;
  packs: readonly Pack[];
  site: SiteRef;
  /** The client's Idempotency-Key, if any: a retry under it is charged once. */
  idempotencyKey?: string | undefined;
  /** The organisation's current valuation assumptions: the answer's `value` names their version. */
  assumptions: AssumptionsDocument;
}

function siteKey(site: SiteRef): string {
  return "lot_id" in site ? `lot:${site.lot_id.trim()}` : `pt:${site.lng},${site.lat}`;
}

/** What a settled score says about its charge: the work's id, units charged (net of a refund), balance, replay. */
export type Settled = { job_id: string; charged: number; balance: number; replayed: boolean };

/**
 * One site's score on the one charged-work path (a lot, or a group of lots as one site): reserve 1 unit under `key`,
 * run `score`, settle, refunding all if it threw; resolves only once the charge is committed.
 */
export async function settledScore<T>(
  payer: Payer,
  charge: { key: string | undefined; description: string },
  score: () => T,
): Promise<{ out: T; settled: Settled }> {
  const work = await reserve(payer, { action: "batch_score", units: 1, ...charge });
  let out: T;
  try {
    out = score();
  } catch (err) {
    await work.settle(0);
    throw err;
  }
  // The answer is sent after this returns: what it says about the charge must already be committed.
  const outcome = await work.settle(1);
  if (!outcome.ok) throw outcome.error;
  return {
    out,
    settled: {
      job_id: work.id,
      charged: work.charged - outcome.settlement.refunded,
      balance: outcome.settlement.balance,
      replayed: work.replayed,
    },
  };
}

/** Locates (free: a miss is a 404 before any charge), charges 0.1, scores and settles before answering. */
export async function scoreParcel(input: ScoreParcelInput) {
  const parcel = locateParcel(input.packs, input.site);
  const { out, settled } = await settledScore(
    input.payer,
    {
      key: workKey("parcel-score", input.idempotencyKey, { site: siteKey(input.site) }),
      description: `Scoring of ${parcel.lotId ?? "one site"}`,
    },
    () => {
      const result = scoreSite(siteFacts(input.packs, parcel));
      return { result, value: valueOfScored(input.packs, parcel, result, input.assumptions) };
    },
  );
  return {
    job_id: settled.job_id,
    parcel: parcelPayload(parcel),
    ...scorePayload(out.result),
    value: out.value,
    charged: settled.charged,
    balance: settled.balance,
    replayed: settled.replayed,
  };
}
