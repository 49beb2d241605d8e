// A layer's per-feature first vertex (v1's featureVertices section, and every v2 page's view): lookups read it.
import type { Columns } from "../geo/types.ts";

// featureVertices entry flag: the feature is one polygon with one ring, so [first vertex, next feature's) is that ring.
export const SIMPLE_FEATURE = 0x80000000;
export const VERTEX_MASK = 0x7fffffff;

/** Each feature's first vertex, flagged when it is one ring, count+1 entries: a point test then skips the offsets. */
export function featureVertices(g: Columns, count: number): Uint32Array {
  const out = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const p = g.featureOffsets[i] as number;
    const r = g.polyOffsets[p] as number;
    const simple = (g.featureOffsets[i + 1] as number) === p + 1 && (g.polyOffsets[p + 1] as number) === r + 1;
    out[i] = ((g.ringOffsets[r] as number) | (simple ? SIMPLE_FEATURE : 0)) >>> 0;
  }
  out[count] = g.ringOffsets[g.polyOffsets[g.featureOffsets[count] as number] as number] as number;
  return out;
}
