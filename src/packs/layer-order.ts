// Reorders a layer's features (geometry and rows) so feature i is the index's i-th leaf.
import type { PointColumns, PolygonColumns } from "./types.ts";

// perm[newIndex] = oldIndex.
export function permuteGeometry(g: PolygonColumns | PointColumns, perm: Uint32Array): PolygonColumns | PointColumns {
  const n = perm.length;
  if (g.kind === "point") {
    const coords = new Float64Array(g.coords.length);
    for (let i = 0; i < n; i++) {
      const o = perm[i] as number;
      coords[2 * i] = g.coords[2 * o] as number;
      coords[2 * i + 1] = g.coords[2 * o + 1] as number;
    }
    return { kind: "point", coords };
  }
  const coords = new Float64Array(g.coords.length);
  const ringOffsets = new Uint32Array(g.ringOffsets.length);
  const polyOffsets = new Uint32Array(g.polyOffsets.length);
  const featureOffsets = new Uint32Array(n + 1);
  let p = 0;
  let r = 0;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const o = perm[i] as number;
    const p0 = g.featureOffsets[o] as number;
    const p1 = g.featureOffsets[o + 1] as number;
    for (let q = p0; q < p1; q++) {
      const r0 = g.polyOffsets[q] as number;
      const r1 = g.polyOffsets[q + 1] as number;
      for (let s = r0; s < r1; s++) {
        const v0 = g.ringOffsets[s] as number;
        const v1 = g.ringOffsets[s + 1] as number;
        coords.set(g.coords.subarray(2 * v0, 2 * v1), 2 * v);
        v += v1 - v0;
        ringOffsets[++r] = v;
      }
      polyOffsets[++p] = r;
    }
    featureOffsets[i + 1] = p;
  }
  return { kind: "polygon", coords, ringOffsets, polyOffsets, featureOffsets };
}
