import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stationNamed, type StationHit } from "../../../src/geocode/stations.ts";
import { haversineM } from "../../../src/geo/distance.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { openPacks } from "../../../src/packs/open-pack.ts";
import { findParcels, matchParcels, MAX_LIMIT, MODEL_LIST } from "../../../src/chat/tools/find-parcels.ts";
import { parcelsIn, resolveArea, type Area } from "../../../src/chat/tools/tool-areas.ts";
import { areaM2 } from "../../../src/geo/geodesic-area.ts";
import { centroid } from "../../../src/geo/centroid.ts";
import { featureToGeometry } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import type { BBox } from "../../../src/geo/bbox.ts";
import type { FindParcelsOutput } from "../../../src/chat/tools/find-parcels.ts";
import { siteFacts } from "../../../src/assess/facts.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import { featureLabelPoint } from "../../../src/geo/label-point.ts";
import { parcelAt, parcelByLot } from "../../../src/packs/spatial.ts";
import { inside, overlapsLayer, packs, suburbPolygon } from "./demo-packs.ts";

const search = openPacks(packs);

async function ok(pending: ReturnType<typeof findParcels>) {
  const run = await pending;
  if ("error" in run.output) throw new Error(run.output.error);
  return { output: run.output as FindParcelsOutput, map: run.map };
}

// The lot's main zone (the one over most of it), as the overlay kernels find it.
const mainZone = (g: AreaGeometry) => {
  const p = parcelAt(packs, ...(featureLabelPoint(columnsFromGeometry(g), 0) as [number, number]));
  return p ? siteFacts(packs, p).zones[0]?.code : null;
};

describe("find_parcels", async () => {
  const run = await ok(
    findParcels(
      search,
      { suburb: "Epping", min_area_m2: 600, zones: ["r2"], hazard_free: true, limit: MAX_LIMIT },
      null,
    ),
  );
  const features = run.map.parcels?.features ?? [];

  it("highlights only R2 parcels over 600 m2 inside Epping with no flood or bushfire, by independent checks", () => {
    const epping = suburbPolygon("Epping");
    expect(features.length).toBeGreaterThan(10);
    for (const f of features) {
      const g = f.geometry as AreaGeometry;
      const c = centroid(g) as [number, number];
      expect(inside(c, epping), `${f.id} in Epping`).toBe(true);
      expect(areaM2(g)).toBeGreaterThanOrEqual(600);
      expect(mainZone(g)).toBe("R2");
      expect(overlapsLayer(g, "flood"), `${f.id} flood`).toBe(false);
      expect(overlapsLayer(g, "bushfire"), `${f.id} bushfire`).toBe(false);
    }
  });

  it("the hazard filter removes parcels that do overlap a hazard", async () => {
    const all = (
      await ok(findParcels(search, { suburb: "Epping", min_area_m2: 600, zones: ["R2"], limit: MAX_LIMIT }, null))
    ).output;
    expect(all.matched).toBeGreaterThan(run.output.matched);
    const kept = new Set(features.map((f) => f.id));
    const dropped = await matchParcels(search, { suburb: "Epping", min_area_m2: 600, zones: ["R2"] }, null);
    if (typeof dropped === "string") throw new Error(dropped);
    const removed = dropped.matches.filter((m) => m.lotId && !kept.has(m.lotId)).slice(0, 5);
    expect(removed.length).toBeGreaterThan(0);
    for (const m of removed) {
      const g = featureToGeometry(m.layer, m.index);
      expect(overlapsLayer(g, "flood") || overlapsLayer(g, "bushfire"), `${m.lotId} overlaps a hazard`).toBe(true);
    }
  });

  it("lists at most 10 lots to the model, largest first, and counts every match", () => {
    const o = run.output;
    expect(o.parcels.length).toBe(Math.min(MODEL_LIST, o.matched));
    expect(o.shown).toBe(Math.min(MAX_LIMIT, o.matched));
    expect(features.length).toBe(o.shown);
    const areas = features.map((f) => f.properties.area_m2 as number);
    expect([...areas].sort((a, b) => b - a)).toEqual(areas);
    expect(o.parcels.map((p) => p.lot_id)).toEqual(features.slice(0, MODEL_LIST).map((f) => f.id));
    expect(o.filters).toEqual({ min_area_m2: 600, zones: ["R2"], hazard_free: true });
    expect(o.area).toBe("Epping, NSW");
    expect(o.demo_data).toBe(true);
  });

  it("fits the map to the highlighted parcels", () => {
    const box = run.map.bbox?.bbox as BBox;
    for (const f of features) {
      for (const [x, y] of (f.geometry as { coordinates: number[][][] }).coordinates[0] as number[][]) {
        expect(x).toBeGreaterThanOrEqual(box[0] - 1e-6);
        expect(x).toBeLessThanOrEqual(box[2] + 1e-6);
        expect(y).toBeGreaterThanOrEqual(box[1] - 1e-6);
        expect(y).toBeLessThanOrEqual(box[3] + 1e-6);
      }
    }
  });

  it("says when nothing matches and what sizes the area has", async () => {
    const o = (await ok(findParcels(search, { suburb: "Newtown", min_area_m2: 600 }, null))).output;
    expect(o.matched).toBe(0);
    expect(o.parcels).toEqual([]);
    expect(o.area_range_m2?.[1]).toBeLessThan(600);
    expect(o.area_range_m2?.[0]).toBeGreaterThan(50);
  });

  it("keeps lots under a maximum area", async () => {
    const r = await ok(findParcels(search, { suburb: "Newtown", max_area_m2: 120, limit: MAX_LIMIT }, null));
    expect(r.output.matched).toBeGreaterThan(0);
    for (const f of r.map.parcels?.features ?? [])
      expect(areaM2(f.geometry as AreaGeometry)).toBeLessThanOrEqual(120.05);
  });

  it("uses the request's map view when no area is named, and refuses when there is none", async () => {
    const view: BBox = [151.178, -33.9, 151.181, -33.897];
    const r = await ok(findParcels(search, {}, view));
    expect(r.output.area).toBe("the map view");
    expect(r.output.matched).toBeGreaterThan(0);
    for (const f of r.map.parcels?.features ?? []) {
      const [x, y] = featureLabelPoint(columnsFromGeometry(f.geometry as AreaGeometry), 0);
      expect(x! >= view[0] && x! <= view[2] && y! >= view[1] && y! <= view[3]).toBe(true);
    }
    expect((await findParcels(search, {}, null)).output).toEqual({
      error: expect.stringContaining("Name a suburb or give a bbox"),
    });
  });

  it("keeps only lots within the station distance and clear of the overlays asked, nearest first when sorted so", async () => {
    const input = { suburb: "Epping", station_within_m: 800, exclude: ["heritage" as const], sort: "station" as const };
    const r = await ok(findParcels(search, { ...input, limit: MAX_LIMIT }, null));
    const all = (await ok(findParcels(search, { suburb: "Epping", limit: MAX_LIMIT }, null))).output;
    expect(r.output.matched).toBeGreaterThan(0);
    expect(r.output.matched).toBeLessThan(all.matched);
    expect(r.output.order).toBe("nearest a station first");
    expect(r.output.filters).toEqual({ exclude: ["heritage"], station_within_m: 800 });
    for (const f of r.map.parcels?.features ?? []) {
      const facts = siteFacts(packs, parcelByLot(packs, String(f.id))!);
      expect(facts.nearestStation?.distanceM, `${f.id} station`).toBeLessThanOrEqual(800.5);
      expect(overlapsLayer(f.geometry as AreaGeometry, "heritage"), `${f.id} heritage`).toBe(false);
    }
    const distances = r.output.parcels.map((p) => p.station?.distance_m ?? Infinity);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  });

  it("keeps only lots whose FSR and height limit reach the minimums asked", async () => {
    const r = await ok(
      findParcels(search, { suburb: "Parramatta", fsr_min: 1.5, height_min_m: 12, limit: MAX_LIMIT }, null),
    );
    expect(r.output.matched).toBeGreaterThan(0);
    for (const f of r.map.parcels?.features ?? []) {
      const c = siteFacts(packs, parcelByLot(packs, String(f.id))!).controls;
      expect(
        c?.fsr.some((x) => x.value >= 1.5),
        `${f.id} fsr`,
      ).toBe(true);
      expect(
        c?.heightM.some((x) => x.value >= 12),
        `${f.id} height`,
      ).toBe(true);
    }
  });

  it("names an unknown suburb", async () => {
    expect((await findParcels(search, { suburb: "Atlantis" }, null)).output).toEqual({
      error: "Suburb not found: Atlantis",
    });
  });

  it("bounds the scan and says so", () => {
    const area = resolveArea(packs, { suburb: "Epping" }, null) as Area;
    const small = parcelsIn(packs, area, 100);
    expect(small.limited).toBe(true);
    expect(small.scanned).toBe(100);
    const full = parcelsIn(packs, area);
    expect(full.limited).toBe(false);
    expect(full.parcels.length).toBeGreaterThan(small.parcels.length);
  });
});

describe("find_parcels around a named station", () => {
  const transport = readPackBytes(readFileSync("packs/sydney-transport.pack"), "sydney-transport");
  const withStations = openPacks([...packs, transport]);
  const epping = stationNamed([transport], "Epping") as StationHit;

  it("keeps every lot within the radius of that station and none beyond it", async () => {
    const r = await ok(
      findParcels(withStations, { station: "Epping Station", station_within_m: 400, limit: 100 }, null),
    );
    expect(r.output.area).toBe("the 400 m around Epping station");
    // The radius is the area, not a filter on the nearest station besides.
    expect(r.output.filters).toEqual({});
    for (const f of r.map.parcels?.features ?? []) {
      const [x, y] = featureLabelPoint(columnsFromGeometry(f.geometry as AreaGeometry), 0) as [number, number];
      expect(haversineM(epping.lon, epping.lat, x, y), String(f.id)).toBeLessThan(401);
    }
    // Every lot of the pack by brute force: the circle is a 64-gon inside the true one, so a lot within 1 m of the rim
    // may fall either way.
    const lots = packs[0]?.layers.get("parcels");
    if (!lots) throw new Error("no parcels");
    let inner = 0;
    let outer = 0;
    for (let i = 0; i < lots.count; i++) {
      const [x, y] = featureLabelPoint(lots, i) as [number, number];
      const d = haversineM(epping.lon, epping.lat, x, y);
      if (d < 399) inner += 1;
      if (d <= 401) outer += 1;
    }
    expect(inner).toBeGreaterThan(100);
    expect(r.output.matched).toBeGreaterThanOrEqual(inner);
    expect(r.output.matched).toBeLessThanOrEqual(outer);
  });

  it("refuses a station no pack knows, by name", async () => {
    expect((await findParcels(withStations, { station: "Narnia" }, null)).output).toEqual({
      error: "Station not found: Narnia",
    });
  });
});
