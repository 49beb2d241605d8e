import { describe, expect, it } from "vitest";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import {
  featuresInBbox,
  nearest,
  overlayShares,
  packContaining,
  parcelAt,
  parcelByLot,
  zonesOnParcel,
} from "../../../src/packs/spatial.ts";
import { D, PARCELS, tinyPackBytes, X0, Y0 } from "./tiny-pack.ts";

const pack = decodePack(tinyPackBytes());
const packs = [pack];

describe("parcelAt", () => {
  it("finds the lot under a point", () => {
    const hit = parcelAt(packs, X0 + D / 2, Y0 + D / 2);
    expect(hit?.index).toBe(0);
    expect(hit?.lotId).toBe("1//DP1001");
    expect(hit?.packId).toBe("tiny");
    expect(hit?.bbox).toEqual([X0, Y0, X0 + D, Y0 + D]);
    expect(hit?.centroid[0]).toBeCloseTo(X0 + D / 2, 9);
    expect(hit?.centroid[1]).toBeCloseTo(Y0 + D / 2, 9);
    expect(hit?.polygon).toEqual(PARCELS[0]);
    // 0.001 degree square at 33.9 S: about 92.5 m by 110.9 m.
    expect(hit?.areaM2).toBeGreaterThan(10200);
    expect(hit?.areaM2).toBeLessThan(10300);
  });

  it("respects holes: the courtyard belongs to the lot inside it", () => {
    expect(parcelAt(packs, X0 + 2.5 * D, Y0 + 0.5 * D)?.index).toBe(1);
    expect(parcelAt(packs, X0 + 3.5 * D, Y0 + 1.5 * D)?.index).toBe(2);
    const ring = parcelAt(packs, X0 + 2.5 * D, Y0 + 0.5 * D);
    const courtyard = parcelAt(packs, X0 + 3.5 * D, Y0 + 1.5 * D);
    expect((ring?.areaM2 ?? 0) / (courtyard?.areaM2 ?? 1)).toBeCloseTo(8, 2);
  });

  it("finds either part of a multi-part lot and nothing in the gaps", () => {
    expect(parcelAt(packs, X0 + 2.5 * D, Y0 + 4.5 * D)?.lotId).toBe("7/2/DP758001");
    expect(parcelAt(packs, X0 + 0.5 * D, Y0 + 4.5 * D)?.index).toBe(3);
    expect(parcelAt(packs, X0 + 1.5 * D, Y0 + 4.5 * D)).toBeNull();
    expect(parcelAt(packs, X0 + 1.5 * D, Y0 + 0.5 * D)).toBeNull();
  });

  it("tells a point outside every pack", () => {
    expect(packContaining(packs, 144.96, -37.81)).toBeNull();
    expect(packContaining(packs, X0 + D / 2, Y0 + D / 2)?.id).toBe("tiny");
    expect(parcelAt(packs, 144.96, -37.81)).toBeNull();
  });

  it("asks packs in order, so a private pack listed first wins", () => {
    const priv = decodePack(tinyPackBytes("private", "9"));
    expect(parcelAt([priv, pack], X0 + D / 2, Y0 + D / 2)?.packId).toBe("private");
    expect(parcelAt([pack, priv], X0 + D / 2, Y0 + D / 2)?.packId).toBe("tiny");
  });
});

describe("parcelByLot", () => {
  it.each([
    ["1//DP1001", 0],
    ["lot 2 dp1001", 1],
    ["Lot 3 DP 1001", 2],
    ["3/DP1001", 2],
    ["Lot 7 Sec 2 DP 758001", 3],
  ])("%s -> feature %i", (lot, index) => {
    expect(parcelByLot(packs, lot)?.index).toBe(index);
  });

  it("returns null for unknown or malformed lot ids", () => {
    expect(parcelByLot(packs, "4//DP1001")).toBeNull();
    expect(parcelByLot(packs, "not a lot")).toBeNull();
  });
});

describe("featuresInBbox and nearest", () => {
  it("lists features in pack then index order up to the limit", () => {
    const all = featuresInBbox(packs, "parcels", [X0 - D, Y0 - D, X0 + 6 * D, Y0 + 6 * D], 10);
    expect(all.map((f) => f.index)).toEqual([0, 1, 2, 3]);
    expect(featuresInBbox(packs, "parcels", [X0 - D, Y0 - D, X0 + 6 * D, Y0 + 6 * D], 2).map((f) => f.index)).toEqual([
      0, 1,
    ]);
    expect(
      featuresInBbox(packs, "parcels", [X0 + 2.1 * D, Y0 + 0.1 * D, X0 + 2.2 * D, Y0 + 0.2 * D], 10).map(
        (f) => f.index,
      ),
    ).toEqual([1]);
    expect(featuresInBbox(packs, "nope", [X0, Y0, X0 + D, Y0 + D], 10)).toEqual([]);
  });

  it("orders stops by true distance in metres", () => {
    // Corner stop ~144 m away diagonally, South stop 1,112 m south, East station 1,849 m east.
    const hits = nearest(packs, "transport", X0, Y0, 3);
    expect(hits.map((h) => h.props.name)).toEqual(["Corner stop", "South stop", "East station"]);
    expect(hits[1]?.distanceM).toBeCloseTo(1111.95, 0);
    expect(hits[0]?.geometry).toEqual({ type: "Point", coordinates: [X0 + 0.001, Y0 - 0.001] });
    expect(nearest(packs, "transport", X0, Y0, 3, 500).map((h) => h.props.stop_id)).toEqual(["C"]);
    expect(nearest(packs, "transport", X0, Y0, 0)).toEqual([]);
  });

  it("measures distance to polygons from their edges, zero inside", () => {
    const hits = nearest(packs, "parcels", X0 + D / 2, Y0 + D / 2, 2);
    expect(hits[0]?.index).toBe(0);
    expect(hits[0]?.distanceM).toBe(0);
    expect(hits[1]?.index).toBe(1);
    // 1.5 x 0.001 degrees of longitude at 33.9 S on the mean sphere.
    expect(hits[1]?.distanceM).toBeCloseTo(138.4, 0);
  });
});

describe("overlayShares and zonesOnParcel", () => {
  const lot0 = PARCELS[0] as NonNullable<(typeof PARCELS)[0]>;

  it("gives the share of the parcel under each overlay category, merging overlaps", () => {
    const shares = overlayShares(packs, lot0, "flood");
    expect(shares.map((s) => s.category)).toEqual(["Flood planning area", "Floodway"]);
    expect(shares[0]?.share).toBeCloseTo(0.5, 6);
    expect(shares[0]?.features.map((f) => f.props.name)).toEqual(["a", "b"]);
    expect(shares[1]?.share).toBeCloseTo(0.25, 6);
    expect(shares[0]?.areaM2).toBeCloseTo(parcelAt(packs, X0 + D / 2, Y0 + D / 2)!.areaM2 / 2, 3);
  });

  it("is empty where no overlay touches the parcel", () => {
    expect(overlayShares(packs, PARCELS[1]!, "flood")).toEqual([]);
    expect(overlayShares(packs, PARCELS[1]!, "bushfire")).toEqual([]);
  });

  it("lists each zone on a split-zoned parcel with its share and controls", () => {
    const zones = zonesOnParcel(packs, lot0);
    expect(zones.map((z) => z.zone)).toEqual(["R2", "R4"]);
    expect(zones[0]?.share).toBeCloseTo(0.75, 6);
    expect(zones[1]?.share).toBeCloseTo(0.25, 6);
    expect(zones[1]?.props).toEqual({
      zone: "R4",
      zone_name: "High Density Residential",
      fsr: 2,
      height_m: 22,
      min_lot_m2: 1000,
    });
    expect(zonesOnParcel(packs, PARCELS[2]!).map((z) => [z.zone, Number(z.share.toFixed(6))])).toEqual([["R2", 1]]);
  });
});
