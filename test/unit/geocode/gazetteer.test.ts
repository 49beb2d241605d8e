import { describe, expect, it } from "vitest";
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import { geocode, normaliseName, stateCode } from "../../../src/geocode/gazetteer.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";

function box(x: number, y: number): AreaGeometry {
  return {
    type: "Polygon",
    coordinates: [
      [
        [x, y],
        [x + 0.01, y],
        [x + 0.01, y + 0.01],
        [x, y + 0.01],
        [x, y],
      ],
    ],
  };
}

const rows: unknown[][] = [
  ["Newtown", "New South Wales", "2042", "12969", 151.18, -33.9],
  ["Newtown", "VIC", "3220", "22001", null, null],
  ["Newtown", "QLD", "4350", "32001", null, null],
  ["St Leonards", "NSW", "2065", "13657", null, null],
  ["McMahons Point", "NSW", "2060", "12557", null, null],
  ["Mount Druitt", "NSW", "2770", "12700", null, null],
];
const geoms = rows.map((_, i) => box(151 + i * 0.02, -33.9));
const pack = memoryPack({
  id: "gaz",
  version: "1",
  meta: { title: "t", attribution: "a", licence: "l" },
  layers: [
    {
      name: "suburbs",
      synthetic: false,
      fields: ["name", "state", "postcode", "sal_code", "label_lon", "label_lat"],
      geometry: { kind: "polygon", ...columnsFromGeometries(geoms) },
      row: (i) => rows[i] as unknown[],
    },
  ],
});
const packs = [pack];

describe("geocode", () => {
  it("returns name, state, bbox, centre, SAL code and pack", () => {
    expect(geocode(packs, "Newtown")).toEqual({
      name: "Newtown",
      state: "NSW",
      bbox: [151, -33.9, 151.01, -33.89],
      center: [151.18, -33.9],
      sal_code: "12969",
      pack_id: "gaz",
    });
  });

  it("uses the polygon centroid when there is no label point", () => {
    const r = geocode(packs, "newtown vic");
    expect(r?.state).toBe("VIC");
    expect(r?.center[0]).toBeCloseTo(151.025, 9);
    expect(r?.center[1]).toBeCloseTo(-33.895, 9);
  });

  it.each([
    ["Newtown, NSW", "12969"],
    ["Newtown NSW", "12969"],
    ["newtown nsw", "12969"],
    ["Newtown, VIC", "22001"],
    ["Newtown Victoria", "22001"],
    ["NEWTOWN   QLD", "32001"],
    ["Newtown, Queensland", "32001"],
    ["  newtown  ", "12969"],
    ["st leonards", "13657"],
    ["St. Leonards", "13657"],
    ["Saint Leonards, NSW", "13657"],
    ["Mcmahons Point", "12557"],
    ["McMahon's Point", "12557"],
    ["mt druitt", "12700"],
    ["Mount-Druitt", "12700"],
  ])("%j -> %s", (q, sal) => {
    expect(geocode(packs, q)?.sal_code).toBe(sal);
  });

  it.each(["Newtown SA", "Newtown, WA", "Nowhere", "", "   ", "NSW"])("%j is not found", (q) => {
    expect(geocode(packs, q)).toBeNull();
  });

  it("normalises names and states", () => {
    expect(normaliseName(" St. Leonards ")).toBe("st leonards");
    expect(normaliseName("Mcmahons Point")).toBe(normaliseName("McMahons Point"));
    expect(stateCode("New South Wales")).toBe("NSW");
    expect(stateCode("vic")).toBe("VIC");
    expect(stateCode("Narnia")).toBeNull();
  });
});
