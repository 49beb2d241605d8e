// Uploaded lots may carry what stands on them (issue 50, item 5): the parcels fields map to the lot's facts, are kept
// in a lots pack's columns, and without them the score states what it assumes.
import { describe, expect, it } from "vitest";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import { existingFromProps } from "../../../src/assess/parcel-use.ts";
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { lotRecord, lotValues, LOT_COLUMNS } from "../../../src/packs/paged/lot-columns.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { type LotPolygon, scoreSite } from "../../../src/scoring/index.ts";
import { buildLayer } from "../../../scripts/pack/layers.ts";

const square = (x: number): LotPolygon => ({
  type: "Polygon",
  coordinates: [
    [
      [151 + x, -33.9],
      [151.0003 + x, -33.9],
      [151.0003 + x, -33.8997],
      [151 + x, -33.8997],
      [151 + x, -33.9],
    ],
  ],
});

const features = [
  {
    properties: { lotidstring: "1//DP1", EXISTING_USE: "Strata", units: "24", strata_plan: "SP12345" },
    geometry: square(0),
  },
  { properties: { lotidstring: "2//DP1", existing_use: "dual occupancy" }, geometry: square(0.001) },
  { properties: { lotidstring: "3//DP1", existing_use: "employment", floor_space_m2: 640 }, geometry: square(0.002) },
  { properties: { lotidstring: "4//DP1" }, geometry: square(0.003) },
  { properties: { lotidstring: "5//DP1", existing_use: "strata" }, geometry: square(0.004) },
  // A Shapefile's names, 10 characters at most.
  { properties: { LOT_ID: "6//DP1", EXIST_USE: "strata", UNITS: 6, STRATAPLAN: "SP9" }, geometry: square(0.005) },
];
const { layer } = buildLayer("parcels", features, false);
const pack = memoryPack({
  id: "upload",
  version: "1",
  meta: { title: "", attribution: "", licence: "" },
  layers: [layer],
  order: "input",
});
const record = (i: number) => lotRecordFrom([pack], parcelFromFeature(pack, i));

describe("an upload's existing-use fields", () => {
  it("map to what stands on each lot, case, spelling and a Shapefile's short names aside, and survive a lots pack's columns", () => {
    const want = [
      { kind: "strata", dwellings: 24, units: 24, strataPlan: "SP12345", floorSpaceM2: null },
      { kind: "dual_occupancy", dwellings: 2, units: null, strataPlan: null, floorSpaceM2: null },
      { kind: "employment", dwellings: 0, units: null, strataPlan: null, floorSpaceM2: 640 },
    ];
    expect(record(5).facts.existing).toEqual({
      kind: "strata",
      dwellings: 6,
      units: 6,
      strataPlan: "SP9",
      floorSpaceM2: null,
    });
    want.forEach((w, i) => {
      const r = record(i);
      expect(r.facts.existing).toEqual(w);
      const values = lotValues(r);
      const back = lotRecord((name) => values[LOT_COLUMNS.findIndex((c) => c.name === name)] ?? null);
      expect(back.facts.existing).toEqual(w);
    });
  });

  it("leave a lot without them, or a strata lot without its units, as not recorded", () => {
    expect(record(3).facts.existing).toBeUndefined();
    expect(record(4).facts.existing).toBeUndefined();
    expect(existingFromProps({ existing_use: "castle" })).toBeNull();
  });

  it("say what is assumed where nothing is recorded, and what is recorded otherwise", () => {
    const zones = [
      { code: "R2", name: "Low Density Residential", share: 1, fsr: 0.5, heightM: 8.5, minLotSizeM2: 450 },
    ];
    const score = (i: number) => {
      const { facts } = record(i);
      return scoreSite({ ...facts, zones, polygon: square(0.001 * i) });
    };
    const none = score(3);
    expect(none.existing).toEqual({ kind: "house", dwellings: 1, assumed: true });
    expect(none.reasons).toContain(
      "What stands on the lot is not recorded: a house (1 dwelling) is assumed to stand, and the uplift is counted beyond it.",
    );
    const dual = score(1);
    expect(dual.existing).toEqual({ kind: "dual_occupancy", dwellings: 2, assumed: false });
    expect(dual.reasons).toContain("Standing today, as recorded: a dual occupancy (2 dwellings).");
  });
});
