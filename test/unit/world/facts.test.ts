// The facts stored for every lot of a small world, read back through the v2 reader, are what the overlay
// kernels (lotRecordFrom) compute from all the world's overlays gathered into one v1 pack.
import { describe, expect, it } from "vitest";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import { type LotRecord, lotRecord } from "../../../src/packs/paged/lot-columns.ts";
import type { ControlShare } from "../../../src/scoring/types.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { UniqueStrataPlans } from "../../../scripts/world/strata-plans.ts";
import { overlayPack, packLots, smallPack, smallWorld, stationsAndSuburbs, worldMap } from "./small-world.ts";

// Leafy and inner suburbs on the Lane Cove River and around St Leonards and the Crows Nest Metro: every zone of
// a city's middle, centres, station bands, flood, bushfire, heritage items and a conservation area.
const SUBURBS = ["Lane Cove", "Lane Cove North", "Greenwich", "St Leonards", "Crows Nest"];
const LOTS = 4000;

const built = smallWorld(SUBURBS, LOTS);
const bytes = await smallPack(SUBURBS, LOTS);
const hits = await packLots(bytes);
const overlays = overlayPack(built);
// The stations and the bus stops the world publishes: each lot's nearest stop is measured to both.
const packs = [overlays, stationsAndSuburbs(undefined, worldMap(built).stops)];
const parcels = overlays.layers.get("parcels");
const indexOf = new Map<string, number>();
for (let i = 0; i < (parcels?.count ?? 0); i++) indexOf.set(String(parcels?.props(i).lot_id), i);

// A control's list is in the order its pack stores the features; the order carries no meaning.
const sorted = (l: readonly ControlShare[] | undefined) =>
  [...(l ?? [])].sort((a, b) => a.value - b.value || a.share - b.share);

function expectSame(stored: LotRecord, want: LotRecord): void {
  const s = stored.facts;
  const w = want.facts;
  expect(s.lotId).toBe(w.lotId);
  expect(Math.abs(s.areaM2 - w.areaM2)).toBeLessThanOrEqual(0.1);
  expect(s.zones.map((z) => [z.code, z.name, z.fsr, z.heightM, z.minLotSizeM2])).toEqual(
    w.zones.map((z) => [z.code, z.name, z.fsr, z.heightM, z.minLotSizeM2]),
  );
  s.zones.forEach((z, i) => {
    expect(Math.abs(z.share - (w.zones[i]?.share ?? -1))).toBeLessThanOrEqual(1e-4);
  });
  for (const key of ["fsr", "heightM", "minLotSizeM2"] as const) {
    const a = sorted(s.controls?.[key]);
    const b = sorted(w.controls?.[key]);
    expect(a.map((c) => [c.value, c.label])).toEqual(b.map((c) => [c.value, c.label]));
    a.forEach((c, i) => {
      expect(Math.abs(c.share - (b[i]?.share ?? -1))).toBeLessThanOrEqual(1e-4);
    });
  }
  expect(Math.abs(s.hazards.flood - w.hazards.flood)).toBeLessThanOrEqual(1e-4);
  expect(Math.abs(s.hazards.bushfire - w.hazards.bushfire)).toBeLessThanOrEqual(1e-4);
  expect(Math.abs(s.heritageShare - w.heritageShare)).toBeLessThanOrEqual(1e-4);
  expect(s.heritageNames).toEqual(w.heritageNames);
  expect([s.nearestStop?.name, s.nearestStop?.mode]).toEqual([w.nearestStop?.name, w.nearestStop?.mode]);
  expect(Math.abs((s.nearestStop?.distanceM ?? 0) - (w.nearestStop?.distanceM ?? 0))).toBeLessThanOrEqual(0.5);
  expect(s.demoData).toBe(w.demoData);
  const p = stored.place;
  const q = want.place;
  expect([p.suburb, p.lga, p.heritageKind, p.address]).toEqual([q.suburb, q.lga, q.heritageKind, q.address]);
  expect(Math.abs((p.frontageM ?? -1) - (q.frontageM ?? -1))).toBeLessThanOrEqual(0.05 + 1e-9);
  // The shape a score shows: a rounding step either way where the two packs' vertices differ.
  expect(Math.abs((s.shape?.frontageM ?? -1) - (w.shape?.frontageM ?? -2))).toBeLessThanOrEqual(0.1 + 1e-9);
  expect(Math.abs((s.shape?.regularity ?? -1) - (w.shape?.regularity ?? -2))).toBeLessThanOrEqual(0.01 + 1e-9);
  expect(s.shape?.frontageBasis).toBe(w.shape?.frontageBasis);
  expect(s.existing).toEqual(w.existing);
  expect(p.centreM === null).toBe(q.centreM === null);
  expect(Math.abs((p.centreM ?? 0) - (q.centreM ?? 0))).toBeLessThanOrEqual(0.5);
}

describe("the synthetic world's stored facts", () => {
  it("hold one record for every lot the generator laid out", () => {
    const want = built.reduce((n, b) => n + b.plan.lots.length, 0);
    expect(hits.length).toBe(want);
    expect(new Set(hits.map((h) => h.properties.lot_id)).size).toBe(want);
  });

  it("equal lotRecordFrom over the generated overlays for every lot (shares 1e-4, distances 0.5 m, area 0.1 m²)", () => {
    // The writer makes strata plan numbers unique in the pack's order, which the reader gives back.
    const plans = new UniqueStrataPlans();
    for (const h of hits) {
      const i = indexOf.get(String(h.properties.lot_id));
      expect(i, String(h.properties.lot_id)).toBeDefined();
      const want = lotRecordFrom(packs, parcelFromFeature(overlays, i as number));
      const e = want.facts.existing;
      if (e?.strataPlan) e.strataPlan = plans.take(e.strataPlan) as string;
      expectSame(
        lotRecord((name) => h.properties[name] ?? null),
        want,
      );
    }
  });

  it("cover what the comparison is meant to test (split controls, partial hazards, both kinds of heritage, a Metro station) and mark every lot as demo data", () => {
    const records = hits.map((h) => lotRecord((name) => h.properties[name] ?? null));
    const split = records.filter((r) => (r.facts.controls?.heightM.length ?? 0) > 1);
    const partFlood = records.filter((r) => r.facts.hazards.flood > 0 && r.facts.hazards.flood < 1);
    const partBush = records.filter((r) => r.facts.hazards.bushfire > 0 && r.facts.hazards.bushfire < 1);
    expect(split.length).toBeGreaterThan(0);
    expect(partFlood.length).toBeGreaterThan(0);
    expect(partBush.length).toBeGreaterThan(0);
    expect(records.some((r) => r.place.heritageKind & 1)).toBe(true);
    expect(records.some((r) => r.place.heritageKind & 2)).toBe(true);
    expect(records.some((r) => r.facts.nearestStop?.mode === "metro")).toBe(true);
    expect(records.every((r) => r.facts.demoData)).toBe(true);
  });
});
