// A lot scored in this tab is shown again for free, but only while its facts are the ones the score was read from.
import { describe, expect, it } from "vitest";
import type { SiteResult } from "../../../src/routes/schemas/batch.ts";
import type { ParcelFacts as Facts, ScoreAnswer } from "../../../src/routes/schemas/parcels.ts";
import {
  fromAnswer,
  fromBatchRow,
  type PaidScore,
  type ScoredHere,
  scoredFor,
  scoreKey,
  withScore,
} from "../../../web/src/map/scored-here.ts";

const facts = (over: Partial<Facts> = {}): Facts => ({
  pack_id: "greater-sydney",
  lot_id: "12//DP1001",
  address: "12 Wattle Street, Epping NSW",
  area_m2: 650,
  centroid: [151.08, -33.77],
  geometry: { type: "Polygon", coordinates: [] },
  zones: [{ code: "R2", name: "Low Density Residential", share: 1, fsr: 0.5, height_m: 9.5, min_lot_size_m2: 450 }],
  controls: null,
  overlays: { flood: 0, bushfire: 0, heritage: 0 },
  heritage_names: [],
  nearest_stop: null,
  nearest_station: null,
  sources: [],
  demo_data: true,
  ...over,
});
const answer = { score: 47, paid: "charged 0.1 credit" } as Pick<PaidScore, "score" | "paid"> as PaidScore;

describe("scores paid for in this tab", () => {
  it("are found again for the same lot with the same facts, and for no other", () => {
    const here = withScore(new Map(), facts(), answer);
    expect(scoredFor(here, facts())).toBe(answer);
    expect(scoredFor(here, facts({ lot_id: "13//DP1001" }))).toBeNull();
    expect(scoredFor(here, facts({ pack_id: "my-lots" }))).toBeNull();
    expect(scoredFor(here, null)).toBeNull();
  });

  it("are not shown as current once the pack under the tab gives the lot other facts", () => {
    const here: ScoredHere = withScore(new Map(), facts(), answer);
    const rezoned = facts({
      zones: [{ ...facts().zones[0], code: "R3", name: "Medium Density Residential" }] as Facts["zones"],
    });
    expect(scoreKey(rezoned)).not.toBe(scoreKey(facts()));
    expect(scoredFor(here, rezoned)).toBeNull();
    expect(scoredFor(here, facts({ overlays: { flood: 0.2, bushfire: 0, heritage: 0 } }))).toBeNull();
  });
});

describe("how a shown score was paid for", () => {
  it("a single score says what it charged; a batch row names its line, so opening it is seen to cost nothing", () => {
    const site = { score: 47, rating: "medium" } as Pick<ScoreAnswer, "score" | "rating">;
    const single = { ...site, job_id: "j1", charged: 0.1, balance: 9.9, replayed: false } as ScoreAnswer;
    expect(fromAnswer(single)).toEqual({ ...site, paid: "charged 0.1 credit" });
    const row = { ...site, index: 2, line: 4, input: { address: "12 Wattle Street" } } as unknown as SiteResult;
    expect(fromBatchRow(row)).toEqual({ ...site, paid: "from the batch, line 4" });
  });
});
