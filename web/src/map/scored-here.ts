// Scores paid for in this tab, by lot: showing one again is free; only `Score again` charges (issue 51, item 3).
import type { ParcelFacts as Facts, ScoreAnswer } from "../../../src/routes/schemas/parcels.ts";
import type { SiteResult } from "../../../src/routes/schemas/batch.ts";

/** A paid score as the Site panel shows it: the model's answer for the lot, and how it was paid for. */
export type PaidScore = Omit<SiteResult, "index" | "line" | "input"> & { paid: string };

/** The tab's paid scores, by scoreKey. */
export type ScoredHere = ReadonlyMap<string, PaidScore>;

/** A single site's score: what it charged. */
export function fromAnswer({ job_id, charged, balance, replayed, ...site }: ScoreAnswer): PaidScore {
  return { ...site, paid: `charged ${charged} credit` };
}

/** A batch row's score: paid with its batch, so opening it costs nothing. */
export function fromBatchRow({ index, line, input, ...site }: SiteResult): PaidScore {
  return { ...site, paid: line > 0 ? `from the batch, line ${line}` : "scored in this tab" };
}

/** The lot as it was when scored: its pack, id (or point) and the facts the score was read from. */
export function scoreKey(facts: Facts): string {
  const where = facts.lot_id ?? facts.centroid.join(",");
  // A pack updated under the tab changes the facts, and with them the key: that score is not shown as current.
  const read = JSON.stringify([facts.zones, facts.overlays, facts.area_m2]);
  return `${facts.pack_id}|${where}|${read}`;
}

/** The paid score of the lot as these facts describe it, or null. */
export function scoredFor(scores: ScoredHere, facts: Facts | null): PaidScore | null {
  return facts ? (scores.get(scoreKey(facts)) ?? null) : null;
}

/** The scores with this lot's new one (the newest kept when a lot is scored again). */
export function withScore(scores: ScoredHere, facts: Facts, score: PaidScore): ScoredHere {
  return new Map(scores).set(scoreKey(facts), score);
}
