// A pack built in memory is the pack a stored file of the same layers decodes to: a build's kernels read either alike.
import { describe, expect, it } from "vitest";
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { featuresInBox } from "../../../src/packs/lookup.ts";
import type { Layer, PackInput } from "../../../src/packs/types.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";

// Squares on a jittered grid (one with a hole), points beside them; rows with a value JSON reads back as null.
function input(order: "input" | "index"): PackInput {
  const n = 300;
  const coords: number[] = [];
  const ringOffsets = [0];
  const polyOffsets = [0];
  const featureOffsets = [0];
  const ring = (x0: number, y0: number, s: number) => {
    coords.push(x0, y0, x0 + s, y0, x0 + s, y0 + s, x0, y0 + s);
    ringOffsets.push(coords.length / 2);
  };
  for (let i = 0; i < n; i++) {
    const x = 151 + (i % 20) * 0.001 + ((i * 7919) % 13) * 1e-5;
    const y = -33.9 + Math.floor(i / 20) * 0.001;
    ring(x, y, 0.0008);
    if (i % 11 === 0) ring(x + 0.0002, y + 0.0002, 0.0002);
    polyOffsets.push(ringOffsets.length - 1);
    featureOffsets.push(polyOffsets.length - 1);
  }
  return {
    id: "m",
    version: "1",
    meta: { title: "t", attribution: "a", licence: "l" },
    order,
    layers: [
      {
        name: "parcels",
        synthetic: false,
        syntheticField: "made_up",
        fields: ["id", "zone", "made_up", "missing"],
        geometry: {
          kind: "polygon",
          coords: Float64Array.from(coords),
          ringOffsets: Uint32Array.from(ringOffsets),
          polyOffsets: Uint32Array.from(polyOffsets),
          featureOffsets: Uint32Array.from(featureOffsets),
        },
        row: (i) => [i, i % 3 === 0 ? "R2" : "R4", i % 5 === 0, i % 2 === 0 ? undefined : Number.NaN],
      },
      {
        name: "transport",
        synthetic: false,
        categoryField: "mode",
        fields: ["name", "mode"],
        geometry: { kind: "point", coords: Float64Array.from([151.01, -33.89, 151.005, -33.895, 151.002, -33.88]) },
        row: (i) => [`Stop ${i}`, i === 0 ? "train" : "bus"],
      },
    ],
  };
}

function same(a: Layer, b: Layer): void {
  const { index: ia, props: pa, ...restA } = a;
  const { index: ib, props: pb, ...restB } = b;
  expect(restA).toEqual(restB);
  expect(ia?.minX).toBe(ib?.minX);
  for (let i = 0; i < a.count; i++) expect(pa(i)).toEqual(pb(i));
  // The same index: every box query answers the same features.
  const boxes: [number, number, number, number][] = [
    [151.003, -33.899, 151.006, -33.896],
    [151, -33.9, 151.02, -33.885],
  ];
  for (const [x0, y0, x1, y1] of boxes)
    expect(featuresInBox(a, x0, y0, x1, y1)).toEqual(featuresInBox(b, x0, y0, x1, y1));
}

describe("memoryPack", () => {
  for (const order of ["input", "index"] as const) {
    it(`holds what encode and decode give for the same layers (${order} order)`, () => {
      const mem = memoryPack(input(order));
      const stored = decodePack(encodePack(input(order)));
      expect(mem.bbox).toEqual(stored.bbox);
      expect([...mem.layers.keys()]).toEqual([...stored.layers.keys()]);
      for (const [name, layer] of mem.layers) same(layer, stored.layers.get(name) as Layer);
    });
  }

  it("refuses two layers of one name", () => {
    const i = input("index");
    expect(() => memoryPack({ ...i, layers: [...i.layers, ...i.layers] })).toThrow(/duplicate layer parcels/);
  });
});
