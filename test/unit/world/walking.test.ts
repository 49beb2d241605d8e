// Issue 50, item 2: each lot's walk to the nearest Schedule 11 station and designated town centre over the world's
// streets (scripts/world/walking.ts), never shorter than the straight line it is shown beside.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOT_COLUMNS, type LotRecord, lotRecord, lotValues } from "../../../src/packs/paged/lot-columns.ts";
import { TOWN_CENTRE_RULE } from "../../../src/scoring/rules/lmr-places.ts";
import { ensureWorld } from "../../../scripts/world/cache.ts";
import { type CentreLand, townCentres } from "../../../scripts/world/town-centres.ts";
import { WalkIndex } from "../../../scripts/world/walk-index.ts";
import { latOf, lonOf } from "../../../scripts/world/walk-plane.ts";
import { walkData } from "../../../scripts/world/walking.ts";
import { packLots, ROOT } from "./small-world.ts";

// A point of the walk plane (metres) as lon, lat near Sydney.
const X0 = 151.1;
const Y0 = -33.85;
const at = (x: number, y: number): [number, number] => [X0 + lonOf(x), Y0 + latOf(y)];
const line = (suburb: number, ...pts: [number, number][]) => ({ suburb, coords: pts.flatMap(([x, y]) => at(x, y)) });
// A quad of 1e-7 degree units, as the world's centre land is stored.
const quad = (x0: number, y0: number, x1: number, y1: number): Int32Array =>
  Int32Array.from([at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)].flat().map((v) => Math.round(v * 1e7)));

describe("the walking graph", () => {
  // An L of streets: (0,0) to (100,0) to (100,100); a station 10 m past its end, off the street.
  const streets = [line(1, [0, 0], [50, 0], [100, 0]), line(1, [100, 0], [100, 100])];
  const [slon, slat] = at(100, 110);

  it("walks a lot to its nearest street point, along the streets, and on to the station", () => {
    const index = new WalkIndex(walkData(streets, [{ name: "Petersham Station", lon: slon, lat: slat }], []));
    const r = index.reachFrom(...at(0, 10));
    // 10 m to the street, 100 m along it, 100 m up the other, 10 m to the station; the straight line is 141.4 m.
    expect(r?.station?.name).toBe("Petersham Station");
    expect(r?.station?.walkingM).toBeCloseTo(220, 6);
    expect(r?.station?.straightM).toBeCloseTo(Math.hypot(100, 100), 6);
    expect(r?.centre).toBeNull();
  });

  it("joins suburbs where one's street ends near another's, and reaches a centre's land by its nearest street", () => {
    // Suburb 2's street starts 30 m beyond suburb 1's end; the centre's land lies beside it, 5 m off the street.
    const two = [...streets, line(2, [100, 130], [100, 230])];
    const land: CentreLand[] = [{ quad: quad(105, 150, 225, 250), suburb: "Stanmore" }];
    const { centres } = townCentres(land);
    expect(centres.map((c) => c.name)).toEqual(["Stanmore town centre"]);
    const index = new WalkIndex(walkData(two, [], centres));
    const r = index.reachFrom(...at(0, 10));
    // 10 + 100 + 100 m, 30 m across to suburb 2, 20 m along to the land's middle row... the nearest source is where the
    // land's middle (y 200) meets the street: 10 + 100 + 100 + 30 + 70 + 5 = 315 m.
    expect(r?.centre?.walkingM).toBeCloseTo(315, 1);
    expect(r?.centre?.straightM).toBeCloseTo(Math.hypot(105, 140), 1);
    // A lot on the centre's land is in it.
    expect(index.reachFrom(...at(150, 200))?.centre).toEqual({
      name: "Stanmore town centre",
      walkingM: 0,
      straightM: 0,
    });
  });

  it("designates a cluster of centre land only at the rule's size: a corner shop is not a town centre", () => {
    const shop: CentreLand = { quad: quad(0, 0, 20, 30), suburb: "Kellyville" };
    const strip: CentreLand[] = [0, 1, 2, 3].map((k) => ({
      quad: quad(k * 30, 100, k * 30 + 28, 140),
      suburb: "Rouse Hill",
    }));
    const big: CentreLand[] = [0, 1].map((k) => ({
      quad: quad(1000, k * 70, 1100, k * 70 + 55),
      suburb: "Rouse Hill",
    }));
    const r = townCentres([shop, ...strip, ...big]);
    // The shop (600 m²) and the strip (4 × 1,120 m², joined across 2 m gaps) fall short of 1 ha; the two blocks 15 m
    // apart (2 × 5,500 m²) are one cluster of 11,000 m².
    expect(TOWN_CENTRE_RULE.minAreaM2).toBe(10_000);
    expect(r.clusters).toBe(3);
    expect(r.centres.map((c) => [c.name, c.areaM2])).toEqual([["Rouse Hill town centre", 11_000]]);
  });

  it("names a suburb's smaller centres by where they lie from its main one, never by a number alone", () => {
    // Penrith's main centre (2 ha), a smaller one 2 km east (1.2 ha) and another 2 km north-west of the main (1.1 ha).
    const block = (x: number, y: number, w: number): CentreLand => ({
      quad: quad(x, y, x + w, y + 100),
      suburb: "Penrith",
    });
    const r = townCentres([block(0, 0, 200), block(2000, 0, 120), block(-1500, 1500, 110)]);
    expect(r.centres.map((c) => c.name)).toEqual([
      "Penrith town centre",
      "Penrith east town centre",
      "Penrith north-west town centre",
    ]);
  });
});

describe("the lots pack's walk columns", () => {
  const record = (reach: LotRecord["facts"]["reach"]): LotRecord => ({
    facts: {
      lotId: "1//DP1",
      areaM2: 600,
      zones: [],
      hazards: { flood: 0, bushfire: 0 },
      heritageShare: 0,
      heritageNames: [],
      nearestStop: null,
      demoData: true,
      ...(reach ? { reach } : {}),
    },
    place: { address: null, suburb: null, lga: null, frontageM: null, centreM: null, heritageKind: 0 },
  });
  const back = (r: LotRecord, has = (_: string) => true) => {
    const values = lotValues(r);
    return lotRecord((name) => values[LOT_COLUMNS.findIndex((c) => c.name === name)] ?? null, has).facts.reach;
  };

  it("store both walks with their straight lines and read them back", () => {
    const reach = {
      station: { name: "Petersham Station", walkingM: 350.5, straightM: 290.25 },
      centre: { name: "Petersham town centre", walkingM: 0, straightM: 0 },
    };
    expect(back(record(reach))).toEqual(reach);
    expect(back(record({ station: null, centre: reach.centre }))).toEqual({ station: null, centre: reach.centre });
  });

  it("leave reach absent where none was walked, or the pack has no walk columns", () => {
    expect(back(record(undefined))).toBeUndefined();
    const reach = { station: { name: "Petersham Station", walkingM: 350.5, straightM: 290.25 }, centre: null };
    expect(back(record(reach), (name) => !name.startsWith("walk_") && !name.startsWith("town_centre"))).toBeUndefined();
  });
});

describe("the 50,000-lot world's walks", () => {
  it("are never shorter than the straight line, for every lot", { timeout: 600_000 }, async () => {
    const world = await ensureWorld({ lots: 50_000, quiet: true, root: ROOT });
    const lots = await packLots(new Uint8Array(readFileSync(world.path)));
    let stations = 0;
    let centres = 0;
    let same = 0;
    for (const { properties: p } of lots) {
      const ws = p.walk_station_m;
      if (typeof ws === "number") {
        stations++;
        expect(ws).toBeGreaterThanOrEqual(p.walk_station_straight_m as number);
        // The straight line to the station walked to is the great-circle one the pack stores, within the plane's 0.6%.
        if (p.walk_station === p.nearest_station) {
          same++;
          const gc = p.nearest_station_m as number;
          expect(Math.abs((p.walk_station_straight_m as number) - gc)).toBeLessThanOrEqual(gc * 0.006 + 1);
        }
      }
      const wc = p.town_centre_walk_m;
      if (typeof wc === "number") {
        centres++;
        expect(wc).toBeGreaterThanOrEqual(p.town_centre_straight_m as number);
        // A suburb's further centres are named by where they lie from its first, numbered past a repeat (town-centres.ts).
        expect(p.town_centre).toMatch(/ town centre( \d+| \(\d+\))?$/);
      }
    }
    expect(lots.length).toBeGreaterThan(49_000);
    console.log(`walks: ${stations} lots to a station, ${centres} to a centre, of ${lots.length}`);
    // The small world is each suburb's middle, so its suburbs' streets rarely meet: a lot walks only within its own.
    expect(stations).toBeGreaterThan(1_000);
    expect(centres).toBeGreaterThan(1_000);
    expect(same).toBeGreaterThan(0);
  });
});
