// Generated searches over the six-suburb demo against a brute-force scan of every lot's facts: each filter alone
// and combined, suburbs by turf point-in-polygon, LGAs as their suburbs' union, boxes; v1 and v2 packs alike.
import { openPacks, pagedPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { featureLabelPoint } from "../../../src/geo/label-point.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import type { SearchArea, SearchFilters, SearchQuery } from "../../../src/search/query.ts";
import { inside, packs, suburbPolygon } from "../chat/demo-packs.ts";

type Lot = {
  id: string;
  x: number;
  y: number;
  zone: string | null;
  area: number;
  fsr: number | null;
  height: number | null;
  minLot: number | null;
  flood: number;
  bushfire: number;
  heritage: boolean;
  stationM: number | null;
};

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const suburbsPack = packs.find((p) => p.id !== "sydney-demo") as Pack;
const SUBURBS = ["Newtown", "Erskineville", "Epping", "Eastwood", "Carlingford", "Parramatta"];
const lots: Lot[] = [];
const lgaOf = new Map<string, string[]>();
let v2: VisiblePacks;

beforeAll(async () => {
  const layer = demo.layers.get("parcels");
  if (!layer) throw new Error("no parcels");
  for (let i = 0; i < layer.count; i++) {
    const p = parcelFromFeature(demo, i);
    const r = lotRecordFrom(packs, p);
    const [x, y] = featureLabelPoint(layer, i);
    const z = r.facts.zones[0];
    lots.push({
      id: p.lotId ?? "",
      x,
      y,
      zone: z?.code ?? null,
      area: Math.round(p.areaM2 * 10) / 10,
      fsr: z?.fsr ?? null,
      height: z?.heightM ?? null,
      minLot: z?.minLotSizeM2 ?? null,
      flood: Math.round(r.facts.hazards.flood * 1e4),
      bushfire: Math.round(r.facts.hazards.bushfire * 1e4),
      heritage: Math.round(r.facts.heritageShare * 1e4) > 0 || r.place.heritageKind !== 0,
      // "Near a station": the nearest train, metro or light-rail station, not the nearest bus stop.
      stationM: r.facts.nearestStation?.distanceM ?? null,
    });
  }
  const sl = suburbsPack.layers.get("suburbs");
  for (let i = 0; i < (sl?.count ?? 0); i++) {
    const props = sl?.props(i) ?? {};
    const lga = String(props.lga);
    lgaOf.set(lga, [...(lgaOf.get(lga) ?? []), String(props.name)]);
  }
  const source = new MemorySource("public/demo-property.pack", await convertToLotsPack(demo, { context: packs }));
  v2 = openPacks([...packs.filter((p) => p !== demo), new PagedPack(source)]);
}, 120_000);

// A brute-force membership test, independent of the engine's codes and tables.
function areaTest(a: SearchArea): (l: Lot) => boolean {
  if ("suburb" in a) {
    const poly = suburbPolygon(a.suburb);
    return (l) => inside([l.x, l.y], poly);
  }
  if ("lga" in a) {
    // Councils go by their long names too; the suburbs data uses the short one.
    const name = a.lga === "City of Sydney" ? "Sydney" : a.lga;
    const polys: AreaGeometry[] = (lgaOf.get(name) ?? []).map(suburbPolygon);
    return (l) => polys.some((g) => inside([l.x, l.y], g));
  }
  if ("bbox" in a) {
    const b = a.bbox;
    return (l) => l.x >= b[0] && l.x <= b[2] && l.y >= b[1] && l.y <= b[3];
  }
  throw new Error("no polygons here");
}

function filterTest(f: SearchFilters): (l: Lot) => boolean {
  const ex = new Set(f.exclude ?? []);
  return (l) =>
    (!f.zones || (l.zone !== null && f.zones.includes(l.zone))) &&
    (f.area_m2?.min === undefined || l.area >= f.area_m2.min) &&
    (f.area_m2?.max === undefined || l.area <= f.area_m2.max) &&
    (f.fsr_min === undefined || (l.fsr !== null && l.fsr >= f.fsr_min)) &&
    (f.height_min_m === undefined || (l.height !== null && l.height >= f.height_min_m)) &&
    (!f.meets_min_lot || l.minLot === null || l.area >= l.minLot) &&
    !(ex.has("flood") && l.flood > 0) &&
    !(ex.has("bushfire") && l.bushfire > 0) &&
    !(ex.has("heritage") && l.heritage) &&
    (f.station_within_m === undefined || (l.stationM !== null && l.stationM <= f.station_within_m));
}

async function allIds(p: VisiblePacks, q: SearchQuery): Promise<{ count: number; ids: string[] }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let count = 0;
  do {
    const a = await searchSites(p, { ...q, limit: 500, cursor });
    count = a.count;
    ids.push(...a.results.map((r) => r.lot_id ?? ""));
    cursor = a.next_cursor;
  } while (cursor);
  return { count, ids };
}

const areaArb: fc.Arbitrary<SearchArea> = fc.oneof(
  fc.constantFrom(...SUBURBS).map((suburb) => ({ suburb })),
  fc.constantFrom("Parramatta", "Inner West", "Ryde", "City of Sydney").map((lga) => ({ lga })),
  fc
    .tuple(fc.double({ min: 150.99, max: 151.19, noNaN: true }), fc.double({ min: -33.91, max: -33.77, noNaN: true }))
    .map(([w, s]) => ({ bbox: [w, s, w + 0.01, s + 0.008] as [number, number, number, number] })),
);

const filtersArb: fc.Arbitrary<SearchFilters> = fc.record(
  {
    zones: fc.subarray(["R2", "R3", "R4", "E1", "MU1", "RE1", "SP2"], { minLength: 1 }),
    area_m2: fc.record(
      { min: fc.integer({ min: 100, max: 900 }), max: fc.integer({ min: 900, max: 3000 }) },
      { requiredKeys: [] },
    ),
    fsr_min: fc.constantFrom(0.5, 0.75, 1, 2),
    height_min_m: fc.constantFrom(8.5, 9.5, 12, 20),
    meets_min_lot: fc.constant(true),
    exclude: fc.subarray(["flood", "bushfire", "heritage"] as const, { minLength: 1 }),
    station_within_m: fc.integer({ min: 100, max: 2000 }),
  },
  { requiredKeys: [] },
);

describe("site search against a brute-force scan", () => {
  it("every generated area and filter set finds exactly the lots the scan finds, each once, on v1 and v2 packs", async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(areaArb, filtersArb, fc.boolean(), async (area, filters, useV2) => {
        const inArea = areaTest(area);
        const pass = filterTest(filters);
        const expected = lots.filter((l) => inArea(l) && pass(l)).map((l) => l.id);
        const got = await allIds(useV2 ? v2 : openPacks(packs), { area, filters });
        expect(got.count).toBe(expected.length);
        expect(new Set(got.ids).size).toBe(got.ids.length);
        expect([...got.ids].sort()).toEqual([...expected].sort());
        if (expected.length > 0) nonEmpty++;
      }),
      { numRuns: 100, seed: 3402 },
    );
    // The generator must reach matches, or the property says little.
    expect(nonEmpty).toBeGreaterThan(10);
  }, 120_000);

  it("a search over its work budget (lots tested, bytes read) is refused before any page is read, and so is one needing too many reads", async () => {
    const source = new MemorySource(
      "public/demo-limits.pack",
      await convertToLotsPack(demo, { context: packs, pageBytes: 2048 }),
    );
    const p: VisiblePacks = openPacks([...packs.filter((x) => x !== demo), new PagedPack(source)]);
    await pagedPacks(p)[0]?.snapshot();
    source.resetCounts();
    await expect(searchSites(p, { area: { lga: "Parramatta" } }, { maxLots: 100 })).rejects.toThrow(
      /would test [\d,]+ lots, more than the 100 one search may test: search a suburb/,
    );
    await expect(searchSites(p, { area: { lga: "Parramatta" } }, { maxBytes: 4096 })).rejects.toThrow(
      /would read [\d.,]+ MiB of lots, more than the 0.1 MiB one search may read/,
    );
    await expect(searchSites(p, { area: { lga: "Parramatta" } }, { maxRanges: 0 })).rejects.toThrow(
      /needs more than 0 reads/,
    );
    expect(source.reads).toBe(0);
  });
});
