// A v2 pack of layers of every kind, built by hand: lines keep their parts as given (a closed loop its closing
// vertex), points read in v1's layout, a geometry of another kind than its layer is refused, an upload's provenance
// rides in the root, and a pack written without layers still reads as one "parcels" layer.
import { describe, expect, it } from "vitest";
import { encodeLayers, type LayerSource } from "../../../../src/packs/paged/encode-layers.ts";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import type { FeatureGeometry } from "../../../../src/packs/paged/feature-geometry.ts";
import {
  clearRootMemo,
  MemorySource,
  PageCache,
  PagedPack,
  pagePack,
  type Snapshot,
} from "../../../../src/packs/paged/index.ts";
import type { ColumnSpec, Value } from "../../../../src/packs/paged/schema.ts";
import { summarisePaged } from "../../../../src/packs/summary.ts";
import type { Layer, Pack, UploadInfo } from "../../../../src/packs/types.ts";
import { makeLots, packOptions } from "./fixture.ts";

const COLUMNS: ColumnSpec[] = [
  { name: "name", type: "text" },
  { name: "mode", type: "dict" },
  { name: "synthetic", type: "json" },
  { name: "zone", type: "dict" },
];

const LINES: FeatureGeometry[] = [
  {
    type: "LineString",
    coordinates: [
      [151.2, -33.8],
      [151.21, -33.81],
      [151.22, -33.8],
    ],
  },
  // A loop: its last vertex is its first, and stays.
  {
    type: "LineString",
    coordinates: [
      [151.3, -33.9],
      [151.31, -33.9],
      [151.31, -33.91],
      [151.3, -33.9],
    ],
  },
  {
    type: "MultiLineString",
    coordinates: [
      [
        [151.1, -33.7],
        [151.1000001, -33.7000001],
      ],
      [
        [151.12, -33.72],
        [151.13, -33.73],
        [151.14, -33.72],
        [151.12, -33.72],
      ],
    ],
  },
];

const POINTS: FeatureGeometry[] = [
  { type: "Point", coordinates: [151.2, -33.87] },
  { type: "Point", coordinates: [151.25, -33.88] },
];

const SQUARE: FeatureGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [151.0, -33.9],
      [151.01, -33.9],
      [151.01, -33.89],
      [151.0, -33.89],
      [151.0, -33.9],
    ],
  ],
};

function layer(name: string, kind: LayerSource["kind"], geometries: FeatureGeometry[], fields: string[]): LayerSource {
  return {
    name,
    kind,
    fields,
    categoryField: fields.includes("mode") ? "mode" : null,
    synthetic: false,
    syntheticField: fields.includes("synthetic") ? "synthetic" : null,
    count: geometries.length,
    geometry: (i) => geometries[i] as FeatureGeometry,
    row: (i) => fields.map((f) => (f === "synthetic" ? i === 0 : f === "mode" ? "train" : `${name} ${i}`)),
  };
}

const LAYERS = [
  layer("rail", "line", LINES, ["name", "mode"]),
  layer("stops", "point", POINTS, ["name", "mode", "synthetic"]),
  layer("zoning", "polygon", [SQUARE], ["zone"]),
];

const UPLOAD: UploadInfo = {
  layer: "transport",
  uploaded_by: "ada@example.com",
  uploaded_at: "2026-01-02T03:04:05Z",
  source: "rail.geojson",
};

async function open(bytes: Uint8Array, key: string): Promise<{ s: Snapshot; packs: Pack[] }> {
  clearRootMemo();
  const reader = new PagedPack(new MemorySource(key, bytes), { cache: new PageCache(), log: () => {} });
  const s = await reader.snapshot();
  const { pages } = await reader.pagesForBox([-180, -90, 180, 90]);
  return { s, packs: pages.map((p) => pagePack(s, p)) };
}

// Feature i's rings as the view holds them, in degrees.
function rings(l: Layer, i: number): number[][][] {
  const out: number[][][] = [];
  for (let p = l.featureOffsets[i] as number; p < (l.featureOffsets[i + 1] as number); p++)
    for (let r = l.polyOffsets[p] as number; r < (l.polyOffsets[p + 1] as number); r++) {
      const ring: number[][] = [];
      for (let v = l.ringOffsets[r] as number; v < (l.ringOffsets[r + 1] as number); v++)
        ring.push([l.coords[2 * v] as number, l.coords[2 * v + 1] as number]);
      out.push(ring);
    }
  return out;
}

const partsOf = (g: FeatureGeometry): number[][][] =>
  g.type === "LineString" ? [g.coordinates as number[][]] : (g.coordinates as number[][][]);

describe("a v2 pack of layers", () => {
  it("gives back a line's parts as given, a loop's closing vertex kept, within the 1e-7 degree quantum", async () => {
    const bytes = await encodeLayers(LAYERS, { id: "rail", version: "1", columns: COLUMNS });
    const { packs } = await open(bytes, "public/rail@1.pack");
    const rail = packs.map((p) => p.layers.get("rail")).find((l) => l !== undefined) as Layer;
    expect(rail).toMatchObject({ kind: "line", count: 3, fields: ["name", "mode"], categoryField: "mode" });
    expect(rail.featureVertices).toBeNull();
    const byName = new Map(Array.from({ length: rail.count }, (_, i) => [String(rail.props(i).name), i]));
    LINES.forEach((g, k) => {
      const i = byName.get(`rail ${k}`) as number;
      // One polygon a feature, whose rings are the line's parts.
      expect((rail.featureOffsets[i + 1] as number) - (rail.featureOffsets[i] as number)).toBe(1);
      const got = rings(rail, i);
      const want = partsOf(g);
      expect(got.map((r) => r.length)).toEqual(want.map((r) => r.length));
      got.forEach((r, j) => {
        r.forEach((v, n) => {
          expect(Math.abs((v[0] as number) - (want[j]?.[n]?.[0] as number))).toBeLessThanOrEqual(0.5e-7 + 1e-12);
          expect(Math.abs((v[1] as number) - (want[j]?.[n]?.[1] as number))).toBeLessThanOrEqual(0.5e-7 + 1e-12);
        });
      });
    });
  });

  it("reads points in v1's layout and polygons as before, each layer's props from its own fields", async () => {
    const bytes = await encodeLayers(LAYERS, { id: "rail", version: "1", columns: COLUMNS });
    const { s, packs } = await open(bytes, "public/kinds@1.pack");
    expect(s.root.meta.layers?.map((l) => [l.name, l.kind, l.pages, l.count])).toEqual([
      ["rail", "line", [0, 1], 3],
      ["stops", "point", [1, 2], 2],
      ["zoning", "polygon", [2, 3], 1],
    ]);
    const [, stops, zoning] = packs.map((p) => [...p.layers.values()][0] as Layer);
    expect(stops?.coords.length).toBe(4);
    expect(stops?.featureOffsets.length).toBe(0);
    expect(stops?.syntheticCount).toBe(1);
    expect(s.root.meta.layers?.[1]?.syntheticCount).toBe(1);
    const marks = [0, 1].map((i) => stops?.props(i).synthetic).sort();
    expect(marks).toEqual([false, true]);
    expect(zoning?.props(0)).toEqual({ zone: "zoning 0" });
    // A square's closing vertex is dropped, as the lots' polygons always were.
    expect(zoning ? rings(zoning, 0)[0]?.length : 0).toBe(4);
    expect(zoning?.featureVertices?.length).toBe(2);
  });

  it("refuses a feature whose geometry is not of its layer's kind, naming the layer and feature", async () => {
    const wrong = [
      layer("zoning", "polygon", [SQUARE, POINTS[0] as FeatureGeometry], ["zone"]),
      layer("stops", "point", [LINES[0] as FeatureGeometry], ["name"]),
      layer("rail", "line", [SQUARE], ["name"]),
    ];
    for (const l of wrong) {
      await expect(encodeLayers([l], { id: "x", version: "1", columns: COLUMNS })).rejects.toThrow(
        new RegExp(`layer ${l.name}: feature \\d: a \\w+ geometry in a ${l.kind} layer`),
      );
    }
    const values = (makeLots(1)[0] as { values: readonly Value[] }).values;
    await expect(encodePack([{ geometry: POINTS[0] as FeatureGeometry, values }], packOptions())).rejects.toThrow(
      /a Point geometry in a polygon layer/,
    );
  });

  it("keeps an upload's provenance in the root: the page view's meta and GET /packs' summary carry it", async () => {
    const info = { title: "Rail", attribution: "Uploaded by ada@example.com", licence: "Private" };
    const bytes = await encodeLayers(LAYERS, { id: "rail", version: "1", columns: COLUMNS, info, upload: UPLOAD });
    const { s, packs } = await open(bytes, "orgs/o1/rail.pack");
    expect(packs[0]?.meta).toEqual({ ...info, upload: UPLOAD });
    expect(summarisePaged(s)).toMatchObject({
      title: "Rail",
      private: true,
      upload: UPLOAD,
      features: 6,
      layers: [
        { name: "rail", kind: "line", count: 3, synthetic: false, synthetic_features: 0 },
        { name: "stops", kind: "point", count: 2, synthetic: false, synthetic_features: 1 },
        { name: "zoning", kind: "polygon", count: 1, synthetic: false, synthetic_features: 0 },
      ],
    });
  });

  it("still writes a lots pack without layers, read as one polygon layer of parcels", async () => {
    const bytes = await encodePack(makeLots(500), packOptions(4 * 1024));
    const { s, packs } = await open(bytes, "public/lots@1.pack");
    expect(s.root.meta.layers).toBeUndefined();
    expect(s.root.meta.upload).toBeUndefined();
    expect(packs.length).toBeGreaterThan(1);
    for (const p of packs) expect([...p.layers.keys()]).toEqual(["parcels"]);
    expect(summarisePaged(s).layers).toEqual([
      { name: "parcels", kind: "polygon", count: 500, synthetic: true, synthetic_features: 500 },
    ]);
  });
});
