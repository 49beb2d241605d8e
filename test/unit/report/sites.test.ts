// Sites of a report on the real demo pack: pairing by position, Points replaced by cadastre lots, ranking.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { parcelAt, parcelFromFeature } from "../../../src/packs/spatial.ts";
import { pairSites, resolveSite, type ReportSite, type ResolvedSite } from "../../../src/report/sites.ts";
import { rankSites } from "../../../src/report/rank.ts";
import { readSupplied } from "../../../src/report/labels.ts";
import type { ParcelGeometry } from "../../../src/report/geometry.ts";

const packs = ["sydney-demo", "sydney-suburbs"].map((n) =>
  readPackBytes(readFileSync(new URL(`../../../packs/${n}.pack`, import.meta.url)), n),
);
const demo = packs[0]!;
const lot = (i: number) => parcelFromFeature(demo, i);
const point = (i: number): ParcelGeometry => ({ type: "Point", coordinates: lot(i).centroid });
const STREET: ParcelGeometry = { type: "Point", coordinates: [151.1789, -33.8985] };
const MELBOURNE: ParcelGeometry = { type: "Point", coordinates: [144.963, -37.814] };

function resolved(site: ReportSite): ResolvedSite {
  if (site.status !== "resolved") throw new Error(`expected a resolved site, got: ${site.detail}`);
  return site;
}

const one = (geometry: ParcelGeometry | undefined, score?: Record<string, unknown>) =>
  resolveSite(packs, { index: 0, geometry, score });

describe("locating a site", () => {
  it("a Point is replaced by the polygon of the cadastre lot that contains it", () => {
    const s = resolved(one(point(100)));
    expect(s.source).toBe("cadastre_at_point");
    expect(s.lotId).toBe(lot(100).lotId);
    expect(s.parcel.polygon.type).toMatch(/Polygon$/);
    expect(s.parcel.polygon).toEqual(lot(100).polygon);
    expect(s.result.score).toBeGreaterThanOrEqual(0);
    expect(s.address).toBe(lot(100).props.address);
  });

  it("a Point on a street is an unresolved site saying so", () => {
    expect(parcelAt(packs, 151.1789, -33.8985)).toBeNull();
    const s = one(STREET);
    expect(s).toMatchObject({
      status: "unresolved",
      detail: expect.stringContaining("No parcel at -33.8985, 151.1789"),
    });
  });

  it("a Point outside every pack is unresolved, naming what the packs cover", () => {
    expect(one(MELBOURNE)).toMatchObject({
      status: "unresolved",
      detail: expect.stringContaining("outside every data pack with parcels (covered: Sydney demo"),
    });
  });

  it("a supplied polygon is assessed as given and named after the lot under its centre", () => {
    const s = resolved(one(lot(100).polygon as ParcelGeometry));
    expect(s.source).toBe("supplied_polygon");
    expect(s.lotId).toBe(lot(100).lotId);
    expect(s.result.score).toBe(resolved(one(point(100))).result.score);
  });

  it("a supplied polygon keeps the lot id its score object gives", () => {
    const s = resolved(one(lot(100).polygon as ParcelGeometry, { parcel: { lot_id: "7//SP1234" } }));
    expect(s.lotId).toBe("7//SP1234");
  });

  it("a polygon outside every pack is unresolved", () => {
    const far: ParcelGeometry = {
      type: "Polygon",
      coordinates: [
        [
          [144.96, -37.81],
          [144.961, -37.81],
          [144.961, -37.811],
          [144.96, -37.81],
        ],
      ],
    };
    expect(one(far)).toMatchObject({
      status: "unresolved",
      detail: expect.stringContaining("outside every data pack"),
    });
  });
});

describe("pairing scores with geometries", () => {
  it("pairs by position over the longer array", () => {
    const pairs = pairSites({ scores: [{ a: 1 }, { b: 2 }, { c: 3 }], parcel_geojsons: [point(1)] });
    expect(pairs.map((p) => [p.index, p.score !== undefined, p.geometry !== undefined])).toEqual([
      [0, true, true],
      [1, true, false],
      [2, true, false],
    ]);
    expect(pairSites({ scores: [], parcel_geojsons: [point(1), point(2)] })).toHaveLength(2);
  });

  it("a score object without a geometry is located from its parcel's GeoJSON, its centroid or its lot id", () => {
    const fromGeojson = resolved(
      one(undefined, { parcel: { geojson: { type: "Feature", geometry: lot(5).polygon, properties: {} } } }),
    );
    expect(fromGeojson).toMatchObject({ source: "supplied_polygon", located: { from: "scores" }, lotId: lot(5).lotId });
    const fromCentroid = resolved(one(undefined, { parcel: { centroid: lot(6).centroid } }));
    expect(fromCentroid).toMatchObject({ source: "cadastre_at_point", lotId: lot(6).lotId });
    const byLot = resolved(one(undefined, { parcel: { lot_id: lot(7).lotId } }));
    expect(byLot).toMatchObject({ source: "cadastre_by_lot", lotId: lot(7).lotId, located: { from: "lot_id" } });
  });

  it("a score object naming nothing locatable is unresolved; an unknown lot id says so", () => {
    expect(one(undefined, { score: 80 })).toMatchObject({
      status: "unresolved",
      detail: expect.stringContaining("No geometry for this site"),
    });
    expect(one(undefined, { lot_id: "99//DP9999999" })).toMatchObject({
      status: "unresolved",
      detail: 'Lot "99//DP9999999" matches no parcel in the data packs.',
    });
  });

  it("a geometry without a score object is assessed on its own", () => {
    const s = resolved(one(point(9)));
    expect(s.supplied).toEqual({ name: null, address: null, lotId: null, score: null, geometry: null });
  });

  it("the paired geometry wins over the score object's own location", () => {
    const s = resolved(one(point(11), { parcel: { centroid: lot(12).centroid } }));
    expect(s.lotId).toBe(lot(11).lotId);
    expect(s.located.from).toBe("parcel_geojsons");
  });
});

describe("reading a batch site_result", () => {
  it("takes the site name, address, lot id and earlier score", () => {
    const s = readSupplied({
      input: { site_name: "Newtown site 1", address: "24 Station Street" },
      parcel: { lot_id: "12//DP1770058", address: "24 Station St, Newtown", centroid: [151.1755, -33.8975] },
      score: 55,
    });
    expect(s).toMatchObject({
      name: "Newtown site 1",
      address: "24 Station St, Newtown",
      lotId: "12//DP1770058",
      score: 55,
      geometry: { type: "Point" },
    });
  });

  it("ignores fields of the wrong kind instead of failing", () => {
    expect(readSupplied({ input: "x", parcel: [1, 2], score: "55", name: { first: "a" } })).toEqual({
      name: null,
      address: null,
      lotId: null,
      score: null,
      geometry: null,
    });
  });
});

describe("ranking", () => {
  const sites = [3, 40, 200, 700, 1500, 3000].map((i, index) =>
    resolveSite(packs, { index, geometry: point(i), score: undefined }),
  );
  sites.push(resolveSite(packs, { index: 6, geometry: STREET, score: undefined }));

  it("orders by score, best first, equal scores in input order; unresolved sites stay out of the ranking", () => {
    const { ranked, unresolved } = rankSites(sites, 3);
    expect(ranked.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    for (let i = 1; i < ranked.length; i++) {
      const [a, b] = [ranked[i - 1]!, ranked[i]!];
      expect(a.result.score > b.result.score || (a.result.score === b.result.score && a.index < b.index)).toBe(true);
    }
    expect(unresolved.map((s) => s.index)).toEqual([6]);
  });

  it("details the top N only, and no more sites than were ranked", () => {
    expect(rankSites(sites, 3).detailed.map((s) => s.rank)).toEqual([1, 2, 3]);
    expect(rankSites(sites, 50).detailed).toHaveLength(6);
  });
});
