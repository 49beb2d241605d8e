// Issue 35's leftover: a bus stop nearer than the railway station no longer hides the station from the policies,
// in a v1 pack (overlay kernels) and in the v2 lots pack built from it (the precomputed nearest_station column).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { siteFacts } from "../../../src/assess/facts.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { pagePack } from "../../../src/packs/paged/page-pack.ts";
import { openPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { PARCELS, parcelFromFeature } from "../../../src/packs/spatial.ts";
import { LMR_OUTER_M, LMR_ZONES } from "../../../src/scoring/constants.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { isSchedule11Station } from "../../../src/scoring/rules/lmr-places.ts";
import type { NearestStop, SiteFacts } from "../../../src/scoring/types.ts";
import { lotsPackWithout } from "../../support/older-lots-pack.ts";

const load = (f: string) => readPackBytes(readFileSync(f), f);
const demo = load("packs/sydney-demo.pack");
const suburbs = load("packs/sydney-suburbs.pack");
const count = demo.layers.get(PARCELS)?.count ?? 0;

// A residential lot, clear of the policy's exclusions and of centre land, whose nearest stop is a bus stop and
// whose nearest station is within 800 m: the kind of lot the old rule (the nearest stop, when a station) left out.
function busFirst(f: SiteFacts): boolean {
  const s = f.nearestStation;
  return (
    f.nearestStop?.mode === "bus" &&
    s !== undefined &&
    s !== null &&
    s.distanceM <= LMR_OUTER_M - 1 &&
    LMR_ZONES.includes(f.zones[0]?.code ?? "") &&
    f.hazards.bushfire === 0 &&
    f.hazards.flood === 0 &&
    f.heritageShare === 0 &&
    f.centreDistanceM === null
  );
}

let found = -1;
for (let i = 0; i < count && found < 0; i++) if (busFirst(siteFacts([demo], parcelFromFeature(demo, i)))) found = i;
const lot = parcelFromFeature(demo, Math.max(0, found));

describe("the nearest station behind a nearer bus stop (demo pack)", () => {
  it("is found by the overlay kernels and gives the lot the station's low and mid rise housing area", () => {
    expect(found, "a demo lot nearer a bus stop than a station within 800 m").toBeGreaterThanOrEqual(0);
    const facts = siteFacts([demo], lot);
    const station = facts.nearestStation;
    expect(station?.mode).toBe("train");
    expect(facts.nearestStop?.distanceM).toBeLessThan(station?.distanceM ?? 0);
    const r = scoreSite(facts);
    expect(r.transport?.mode).toBe("bus");
    expect(r.station?.name).toBe(station?.name);
    // Only a station Schedule 11 lists places a lot in an area: the same station under a listed name does, behind the bus stop.
    expect(isSchedule11Station(station?.name ?? "")).toBe(r.policy.area !== "none");
    const listed = { ...facts, nearestStation: { ...(station as NearestStop), name: "Petersham Station" } };
    const p = scoreSite(listed);
    expect(p.policy.from).toBe("station");
    expect(p.policy.name).toBe("Petersham Station");
    expect(["lmr_inner", "lmr_outer"]).toContain(p.policy.area);
    // The old rule: no station unless the nearest stop is one, so no policy for this lot.
    const { nearestStation: _s, ...old } = listed;
    expect(scoreSite(old).policy.area).toBe("none");
  });

  it("is stored in the v2 lots pack's nearest_station columns and read back into the same policy", async () => {
    const bytes = await convertToLotsPack(demo, { context: [demo, suburbs] });
    const pack = await openPack(new MemorySource("nearest-station.pack", bytes), {
      cache: new PageCache(),
      log: () => {},
    });
    const { snapshot, pages } = await pack.pagesForLot(lot.lotId ?? "");
    const hits = pages.flatMap((page) => {
      const view = pagePack(snapshot, page);
      const layer = view.layers.get(PARCELS);
      const out = [];
      for (let i = 0; i < (layer?.count ?? 0); i++) {
        const p = parcelFromFeature(view, i);
        if (p.lotId === lot.lotId) out.push(p);
      }
      return out;
    });
    expect(hits).toHaveLength(1);
    const stored = hits[0]?.record?.facts;
    const want = siteFacts([demo], lot).nearestStation;
    expect(stored?.nearestStation).toEqual({
      name: want?.name,
      mode: want?.mode,
      distanceM: Math.fround(want?.distanceM ?? -1),
    });
    const f2 = siteFacts([], hits[0] as NonNullable<(typeof hits)[0]>);
    // The lots pack knows the lot's council (its suburbs context); the v1 pack alone does not: compared with it given.
    const v1 = scoreSite({ ...siteFacts([demo], lot), lga: f2.lga ?? null });
    const v2 = scoreSite(f2);
    expect(v2.policy).toEqual(v1.policy);
    expect(v2.score).toBe(v1.score);
  });

  it("is left unset by a lots pack built before the column, whose score then takes the nearest stop as before", async () => {
    // The columns and page coding of a pack written before issue 35's column and issue 33's coding.
    const bytes = await lotsPackWithout(
      [lot, parcelFromFeature(demo, 0)],
      [demo, suburbs],
      (name) => name.startsWith("nearest_station"),
      { id: "old-lots", columnCoding: 0 },
    );
    const pack = await openPack(new MemorySource("old-lots.pack", bytes), { cache: new PageCache(), log: () => {} });
    const { snapshot, pages } = await pack.pagesForLot(lot.lotId ?? "");
    const view = pagePack(snapshot, pages[0] as NonNullable<(typeof pages)[0]>);
    const layer = view.layers.get(PARCELS);
    const i = Array.from({ length: layer?.count ?? 0 }, (_, k) => k).find(
      (k) => parcelFromFeature(view, k).lotId === lot.lotId,
    );
    const hit = parcelFromFeature(view, i ?? -1);
    expect(hit.record, "still a lots pack").toBeDefined();
    expect(hit.record?.facts.nearestStop?.mode).toBe("bus");
    expect("nearestStation" in (hit.record?.facts ?? {})).toBe(false);
    expect(scoreSite(siteFacts([], hit)).station).toBeNull();
  });
});
