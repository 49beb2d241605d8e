// Features stored in the index's Hilbert order: same answers as input order, faster memory walk.
import { describe, expect, it } from "vitest";
import { featureBBox } from "../../../src/geo/bbox.ts";
import { columnsFromGeometries, featureToGeometry } from "../../../src/geo/columns.ts";
import { pointInFeature } from "../../../src/geo/pip.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";
import { featureAt, featuresInBox } from "../../../src/packs/lookup.ts";
import type { Layer, PackInput } from "../../../src/packs/types.ts";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 48271) >>> 0) % 2147483647;
    return s / 2147483647;
  };
}

// A grid of lots with random jitter, some with holes, some in two parts, and a few big overlapping blocks.
function features(n: number, seed: number): AreaGeometry[] {
  const r = rng(seed);
  const out: AreaGeometry[] = [];
  const sq = (x0: number, y0: number, x1: number, y1: number) => [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
  for (let i = 0; i < n; i++) {
    const x = 151 + (i % 40) * 0.001 + r() * 0.0002;
    const y = -33.9 + Math.floor(i / 40) * 0.001 + r() * 0.0002;
    if (i % 17 === 0)
      out.push({
        type: "Polygon",
        coordinates: [sq(x, y, x + 0.0009, y + 0.0009), sq(x + 0.0003, y + 0.0003, x + 0.0006, y + 0.0006)],
      });
    else if (i % 23 === 0)
      out.push({
        type: "MultiPolygon",
        coordinates: [[sq(x, y, x + 0.0004, y + 0.0009)], [sq(x + 0.0005, y, x + 0.0009, y + 0.0009)]],
      });
    else if (i % 97 === 0) out.push({ type: "Polygon", coordinates: [sq(x - 0.002, y - 0.002, x + 0.003, y + 0.003)] });
    else out.push({ type: "Polygon", coordinates: [sq(x, y, x + 0.0009 + r() * 0.0002, y + 0.0009)] });
  }
  return out;
}

function pack(geoms: AreaGeometry[], order: "input" | "index") {
  const input: PackInput = {
    id: order,
    version: "1",
    meta: { title: "t", attribution: "t", licence: "t" },
    order,
    layers: [
      {
        name: "parcels",
        synthetic: false,
        fields: ["id"],
        geometry: { kind: "polygon", ...columnsFromGeometries(geoms) },
        row: (i) => [i],
      },
    ],
  };
  return decodePack(encodePack(input));
}

function bruteAt(layer: Layer, x: number, y: number): number {
  for (let i = 0; i < layer.count; i++) if (pointInFeature(layer, i, x, y)) return i;
  return -1;
}

describe("index order", () => {
  const geoms = features(1600, 7);
  const byIndex = pack(geoms, "index");
  const byInput = pack(geoms, "input");
  const li = byIndex.layers.get("parcels") as Layer;
  const ln = byInput.layers.get("parcels") as Layer;

  it("moves every feature with its properties, and makes the index's leaf ids the identity", () => {
    expect(li.indexOrder).toBe(true);
    expect(ln.indexOrder).toBe(false);
    const seen = new Set<number>();
    for (let i = 0; i < li.count; i++) {
      const original = li.props(i).id as number;
      seen.add(original);
      expect(featureToGeometry(li, i)).toEqual(featureToGeometry(ln, original));
      expect(li.index?._indices[i]).toBe(i);
    }
    expect(seen.size).toBe(geoms.length);
    // Neighbours in storage are neighbours on the ground: consecutive features sit close together.
    let far = 0;
    for (let i = 1; i < li.count; i++) {
      const a = featureBBox(li, i - 1);
      const b = featureBBox(li, i);
      if (Math.abs(a[0] - b[0]) > 0.003 || Math.abs(a[1] - b[1]) > 0.003) far++;
    }
    expect(far).toBeLessThan(li.count / 10);
  });

  it("finds the same lot as a brute-force scan, lowest index winning where features overlap", () => {
    const r = rng(99);
    let hits = 0;
    for (let k = 0; k < 3000; k++) {
      const x = 150.998 + r() * 0.044;
      const y = -33.902 + r() * 0.044;
      const a = featureAt(li, x, y);
      expect(a).toBe(bruteAt(li, x, y));
      const b = featureAt(ln, x, y);
      expect(b).toBe(bruteAt(ln, x, y));
      // Either order finds a lot at exactly the same places.
      expect(a < 0).toBe(b < 0);
      if (a >= 0) hits++;
    }
    expect(hits).toBeGreaterThan(1000);
  });

  it("lists the features whose boxes meet a box, as a scan does", () => {
    const r = rng(5);
    for (let k = 0; k < 200; k++) {
      const x = 150.998 + r() * 0.044;
      const y = -33.902 + r() * 0.044;
      const box = [x, y, x + r() * 0.004, y + r() * 0.004] as const;
      for (const layer of [li, ln]) {
        const expected: number[] = [];
        for (let i = 0; i < layer.count; i++) {
          const b = featureBBox(layer, i);
          if (b[0] <= box[2] && b[2] >= box[0] && b[1] <= box[3] && b[3] >= box[1]) expected.push(i);
        }
        expect(featuresInBox(layer, ...box)).toEqual(expected);
      }
    }
  });

  it("works for a layer smaller than one index node", () => {
    const small = pack(geoms.slice(0, 5), "index").layers.get("parcels") as Layer;
    for (let i = 0; i < 5; i++) {
      const b = featureBBox(small, i);
      const x = (b[0] + b[2]) / 2;
      const y = b[1] + (b[3] - b[1]) * 0.1;
      expect(featureAt(small, x, y)).toBe(bruteAt(small, x, y));
    }
  });
});

describe("synthetic marks on single features", () => {
  const stops = (marks: boolean[], syntheticField?: string) =>
    encodePack({
      id: "s",
      version: "1",
      meta: { title: "t", attribution: "t", licence: "t" },
      order: "index",
      layers: [
        {
          name: "transport",
          synthetic: false,
          syntheticField,
          fields: ["name", "synthetic"],
          geometry: { kind: "point", coords: Float64Array.from(marks.flatMap((_, i) => [151 + i * 0.01, -33.9])) },
          row: (i) => [`stop ${i}`, marks[i]],
        },
      ],
    });

  it("counts the features a layer marks synthetic, and keeps each mark on its own point", () => {
    const layer = decodePack(stops([true, false, true, true], "synthetic")).layers.get("transport") as Layer;
    expect(layer.synthetic).toBe(false);
    expect(layer.syntheticField).toBe("synthetic");
    expect(layer.syntheticCount).toBe(3);
    for (let i = 0; i < 4; i++) {
      const p = layer.props(i);
      expect(p.synthetic).toBe(p.name !== "stop 1");
      expect(layer.coords[2 * i]).toBeCloseTo(151 + Number(String(p.name).slice(5)) * 0.01, 12);
    }
  });

  it("refuses a synthetic field the layer does not have", () => {
    expect(() => stops([true], "fake")).toThrow(/syntheticField fake is not one of its fields/);
  });
});
