import { describe, expect, it } from "vitest";
import { openPacks } from "../../../src/packs/open-pack.ts";
import { scoreSites, MAX_SITES, type ScoreSitesOutput } from "../../../src/chat/tools/score-sites.ts";
import type { SiteCharge } from "../../../src/chat/tools/context.ts";
import { summariseArea, type SummariseAreaOutput } from "../../../src/chat/tools/summarise-area.ts";
import { parcelsIn, resolveArea, type Area } from "../../../src/chat/tools/tool-areas.ts";
import { siteFacts } from "../../../src/assess/facts.ts";
import { parcelByLot } from "../../../src/packs/spatial.ts";
import { DEMO_DATA_REASON, scoreSite } from "../../../src/scoring/index.ts";
import { packs } from "./demo-packs.ts";
import { QUESTION_BOUNDS, QuestionBudget } from "../../../src/chat/budget.ts";

function charger(balance: number) {
  const calls: number[] = [];
  const charge: SiteCharge = async (sites) => {
    calls.push(sites);
    const required = Math.round(sites * 0.1 * 1e4) / 1e4;
    if (required > balance) return { ok: false, required, available: balance };
    balance = Math.round((balance - required) * 1e4) / 1e4;
    return { ok: true, charged: required, balance };
  };
  return { calls, charge };
}

const LOTS = ["22//DP1639151", "18/DP1082997", "Lot 24 DP 1293293"];

const search = openPacks(packs);

describe("score_sites", () => {
  it("scores lots with the batch model and charges 0.1 per site scored, once", async () => {
    const { calls, charge } = charger(5);
    const run = await scoreSites(search, { lot_ids: [...LOTS, "99//DP1"] }, null, charge, new QuestionBudget());
    const o = run.output as ScoreSitesOutput;
    expect(calls).toEqual([3]);
    expect(o.charged).toBe(0.3);
    expect(o.balance).toBe(4.7);
    expect(o.not_found).toEqual(["99//DP1"]);
    for (const [i, id] of LOTS.entries()) {
      const batch = scoreSite(siteFacts(packs, parcelByLot(packs, id)!));
      expect(o.scored[i]).toMatchObject({
        lot_id: batch.lotId,
        score: batch.score,
        rating: batch.rating,
        reasons: batch.reasons.filter((r) => r !== DEMO_DATA_REASON).slice(0, 3),
      });
    }
    const features = run.map.parcels?.features ?? [];
    expect(features.map((f) => f.properties.score)).toEqual(o.scored.map((s) => s.score));
  });

  it("each scored site's reasons are its own, not 'These figures come from synthetic demo data' (said once, as demo_data)", async () => {
    const { charge } = charger(5);
    const o = (await scoreSites(search, { lot_ids: LOTS }, null, charge, new QuestionBudget()))
      .output as ScoreSitesOutput;
    expect(o.demo_data).toBe(true);
    for (const [i, s] of o.scored.entries()) {
      const batch = scoreSite(siteFacts(packs, parcelByLot(packs, LOTS[i] as string)!));
      expect(batch.reasons[0]).toBe(DEMO_DATA_REASON);
      expect(s.reasons).toHaveLength(3);
      expect(s.reasons).not.toContain(DEMO_DATA_REASON);
      expect(s.reasons.every((r) => batch.reasons.includes(r))).toBe(true);
    }
    // Sites differ, so do their reasons: no one sentence stands for every site.
    expect(new Set(o.scored.map((s) => s.reasons.join(" "))).size).toBe(o.scored.length);
  });

  it("counts the same lot in two spellings once", async () => {
    const { calls, charge } = charger(5);
    const o = (
      await scoreSites(search, { lot_ids: ["24//DP1293293", "Lot 24 DP 1293293"] }, null, charge, new QuestionBudget())
    ).output as ScoreSitesOutput;
    expect(o.scored).toHaveLength(1);
    expect(calls).toEqual([1]);
  });

  it("returns no scores and says what is short when credits do not cover the sites", async () => {
    const { calls, charge } = charger(0.2);
    const run = await scoreSites(search, { lot_ids: LOTS }, null, charge, new QuestionBudget());
    expect(calls).toEqual([3]);
    expect(run.output).toEqual({
      error: "insufficient_credits",
      required: 0.3,
      available: 0.2,
      detail: expect.stringContaining("0.3 credits"),
    });
    expect(run.map).toEqual({});
  });

  it("scores an area's largest matching lots up to the limit, and charges nothing when there is none", async () => {
    const { calls, charge } = charger(10);
    const o = (await scoreSites(search, { suburb: "Parramatta", limit: 50 }, null, charge, new QuestionBudget()))
      .output as ScoreSitesOutput;
    expect(o.scored).toHaveLength(MAX_SITES);
    expect(calls).toEqual([MAX_SITES]);
    const areas = o.scored.map((s) => s.area_m2);
    expect([...areas].sort((a, b) => b - a)).toEqual(areas);
    const none = await scoreSites(search, { suburb: "Newtown", min_area_m2: 5000 }, null, charge, new QuestionBudget());
    expect(none.output).toEqual({ error: expect.stringContaining("No sites to score") });
    expect(calls).toEqual([MAX_SITES]);
  });

  it("within one question, a site scored again is shown again and not charged again", async () => {
    const { calls, charge } = charger(10);
    const budget = new QuestionBudget();
    await scoreSites(search, { lot_ids: LOTS.slice(0, 2) }, null, charge, budget);
    const again = (await scoreSites(search, { lot_ids: LOTS }, null, charge, budget)).output as ScoreSitesOutput;
    expect(calls).toEqual([2, 1]);
    expect(again.scored).toHaveLength(3);
    expect(again.already_scored).toBe(2);
    expect(again.charged).toBe(0.1);
  });

  it("stops at the question's site bound, charging at most that many sites and saying so once", async () => {
    const { calls, charge } = charger(100);
    const budget = new QuestionBudget();
    const suburbs = ["Parramatta", "Epping", "Newtown", "Chatswood", "Strathfield"];
    const outputs: ScoreSitesOutput[] = [];
    for (const suburb of suburbs) {
      const run = await scoreSites(search, { suburb, limit: MAX_SITES }, null, charge, budget);
      if ("scored" in run.output) outputs.push(run.output);
    }
    const charged = calls.reduce((a, b) => a + b, 0);
    expect(charged).toBe(QUESTION_BOUNDS.sites);
    expect(outputs.some((o) => o.over_site_bound > 0)).toBe(true);
    expect(budget.takeNotices()).toEqual([{ bound: "sites", detail: expect.stringContaining("50 distinct sites") }]);
  });
});

describe("summarise_area", () => {
  const ok = (name: string) => summariseArea(packs, { suburb: name }, null).output as SummariseAreaOutput;

  it("counts every parcel of the suburb once in the zone mix", () => {
    const o = ok("Epping");
    const area = resolveArea(packs, { suburb: "Epping" }, null) as Area;
    expect(o.parcels).toBe(parcelsIn(packs, area).parcels.length);
    expect(o.zone_mix.reduce((s, z) => s + z.parcels, 0)).toBe(o.parcels);
    expect(o.zone_mix.map((z) => z.zone)).toEqual(expect.arrayContaining(["R2", "R4"]));
    expect(o.median_area_m2).toBeGreaterThan(360);
  });

  it("tells suburbs with a creek or bush from one without", () => {
    const erskineville = ok("Erskineville");
    const newtown = ok("Newtown");
    const epping = ok("Epping");
    expect(erskineville.flood.parcels).toBeGreaterThan(0);
    expect(erskineville.flood.share).toBeCloseTo(erskineville.flood.parcels / erskineville.parcels, 2);
    expect(newtown.flood.parcels).toBe(0);
    expect(newtown.bushfire.parcels).toBe(0);
    expect(newtown.heritage.parcels).toBeGreaterThan(0);
    expect(epping.bushfire.parcels).toBeGreaterThan(0);
    expect(epping.transport_stops.map((s) => s.name)).toContain("Epping Station");
  });

  it("gives the map the area's box and its hazard polygons", () => {
    const run = summariseArea(packs, { suburb: "Erskineville" }, null);
    expect(run.map.bbox?.label).toBe("Erskineville, NSW");
    expect(run.map.overlays?.features.some((f) => f.properties.layer === "flood")).toBe(true);
  });
});
