import { describe, expect, it } from "vitest";
import { describeParcel, type DescribeParcelOutput } from "../../../src/chat/tools/describe-parcel.ts";
import { lookupLot } from "../../../src/chat/tools/lookup-lot.ts";
import { geocodeSuburb } from "../../../src/chat/tools/geocode-suburb.ts";
import { haversineM } from "../../../src/geo/distance.ts";
import { featureCentroid } from "../../../src/geo/centroid.ts";
import { featureToGeometry } from "../../../src/geo/columns.ts";
import { demoPack, inside, packs, suburbPolygon } from "./demo-packs.ts";

function described(input: Parameters<typeof describeParcel>[1]) {
  const run = describeParcel(packs, input);
  if ("error" in run.output) throw new Error(run.output.error);
  return { output: run.output as DescribeParcelOutput, map: run.map };
}

// A lot whose centroid lies in a flood polygon, found by brute force rather than hard-coded.
function floodedLot(): string {
  const parcels = demoPack.layers.get("parcels")!;
  const flood = demoPack.layers.get("flood")!;
  const floods = Array.from({ length: flood.count }, (_, i) => featureToGeometry(flood, i));
  for (let i = 0; i < parcels.count; i++) {
    const c = featureCentroid(parcels, i);
    if (floods.some((g) => inside(c, g))) return parcels.props(i).lot_id as string;
  }
  throw new Error("no flooded lot");
}

describe("describe_parcel", () => {
  it("reads any spelling of a lot id and returns the same lot", () => {
    const a = described({ lot_id: "Lot 24 DP 1293293" }).output;
    const b = described({ lot_id: "24//DP1293293" }).output;
    expect(a.lot_id).toBe("24//DP1293293");
    expect(b).toEqual(a);
  });

  it("reports zones with shares summing to the whole lot, each zone's controls taken from the control layers", () => {
    const o = described({ lot_id: "24//DP1293293" }).output;
    const total = o.zones.reduce((s, z) => s + z.share, 0);
    expect(total).toBeGreaterThan(0.98);
    expect(total).toBeLessThan(1.02);
    const values = (layer: string, field: string) => {
      const l = demoPack.layers.get(layer)!;
      return Array.from({ length: l.count }, (_, i) => l.props(i)[field]);
    };
    const zoneCodes = values("zoning", "zone");
    for (const z of o.zones) {
      expect(zoneCodes).toContain(z.code);
      // Separate control layers (NSW's shape): each value comes from its own layer, or none where unmapped.
      if (z.fsr !== null) expect(values("fsr", "fsr")).toContain(z.fsr);
      if (z.height_m !== null) expect(values("height", "height_m")).toContain(z.height_m);
      if (z.min_lot_m2 !== null) expect(values("lot_size", "min_lot_m2")).toContain(z.min_lot_m2);
    }
  });

  it("finds a point's lot, and names the nearest stop at its true distance", () => {
    const o = described({ lot_id: "24//DP1293293" }).output;
    const byPoint = described({ lon: o.centroid[0], lat: o.centroid[1] }).output;
    expect(byPoint.lot_id).toBe(o.lot_id);
    const stops = demoPack.layers.get("transport")!;
    let best = Infinity;
    for (let i = 0; i < stops.count; i++)
      best = Math.min(best, haversineM(o.centroid[0], o.centroid[1], stops.coords[2 * i]!, stops.coords[2 * i + 1]!));
    expect(o.nearest_transport?.distance_m).toBeCloseTo(best, -1);
  });

  it("gives a flooded lot's flood share and category, and its overlay polygons to the map", () => {
    const r = described({ lot_id: floodedLot() });
    expect(r.output.overlays.flood.share).toBeGreaterThan(0);
    expect(r.output.overlays.flood.categories[0]?.category).toBe("Flood planning area");
    const overlays = r.map.overlays?.features ?? [];
    expect(overlays.some((f) => f.properties.layer === "flood")).toBe(true);
    expect(r.map.parcels?.features[0]?.properties.flood_share).toBe(r.output.overlays.flood.share);
    expect(r.output.demo_data).toBe(true);
  });

  it("says why when the lot is unknown or nothing locates it", () => {
    expect(describeParcel(packs, { lot_id: "99//DP1" }).output).toEqual({
      error: 'Lot "99//DP1" matches no parcel in the data packs.',
    });
    expect(describeParcel(packs, {}).output).toEqual({ error: "Give a lot_id, or lon and lat." });
    expect(describeParcel(packs, { lon: 144.96, lat: -37.81 }).output).toEqual({
      error: expect.stringContaining("No parcel at"),
    });
  });
});

describe("lookup_lot and geocode_suburb", () => {
  it("looks a lot up and shows it", () => {
    const r = lookupLot(packs, { lot_id: "lot 3 dp1833607" });
    expect(r.output).toMatchObject({ lot_id: "3//DP1833607", pack_id: "sydney-demo", demo_data: true });
    expect(r.map.parcels?.features).toHaveLength(1);
    expect(r.map.bbox?.label).toBe("3//DP1833607");
    expect(lookupLot(packs, { lot_id: "nonsense" }).output).toEqual({
      error: 'Lot "nonsense" matches no parcel in the data packs.',
    });
  });

  it("geocodes a suburb and fits the map to a box holding its boundary", () => {
    const r = geocodeSuburb(packs, { suburb: "carlingford" });
    expect(r.output).toMatchObject({ name: "Carlingford", state: "NSW", pack_id: "sydney-suburbs" });
    const poly = suburbPolygon("Carlingford");
    const [w, s, e, n] = r.map.bbox!.bbox;
    expect(
      inside([(w + e) / 2, (s + n) / 2], poly) || inside((r.output as { center: [number, number] }).center, poly),
    ).toBe(true);
    expect(geocodeSuburb(packs, { suburb: "Atlantis" }).output).toEqual({ error: "Suburb not found: Atlantis" });
  });
});
