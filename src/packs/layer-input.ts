// What every pack builder does with a layer before it stores it: count and check its columns, box its features,
// index them with flatbush and, when asked, move them into the index's leaf order.
import Flatbush from "flatbush";
import { type BBox, bboxOfRange } from "../geo/bbox.ts";
import { renumberLeaves } from "./flatbush-walk.ts";
import { permuteGeometry } from "./layer-order.ts";
import type { LayerInput } from "./types.ts";

/** Flatbush's node size in every pack index. */
export const INDEX_NODE_SIZE = 16;

export function featureCount(layer: LayerInput): number {
  const g = layer.geometry;
  return g.kind === "point" ? g.coords.length >>> 1 : g.featureOffsets.length - 1;
}

/** Feature i's bbox from its vertices, 4 numbers each; points are degenerate boxes. */
export function featureBoxes(layer: LayerInput, count: number): Float64Array {
  const g = layer.geometry;
  const boxes = new Float64Array(count * 4);
  const c = g.coords;
  for (let i = 0; i < count; i++) {
    let v0: number;
    let v1: number;
    if (g.kind === "point") {
      v0 = i;
      v1 = i + 1;
    } else {
      const r0 = g.polyOffsets[g.featureOffsets[i] as number] as number;
      const r1 = g.polyOffsets[g.featureOffsets[i + 1] as number] as number;
      v0 = g.ringOffsets[r0] as number;
      v1 = g.ringOffsets[r1] as number;
    }
    boxes.set(bboxOfRange(c, v0, v1), 4 * i);
  }
  return boxes;
}

/** Throws when the offset arrays do not tie together (a builder's bug, not a user's input). */
export function checkColumns(layer: LayerInput, count: number): void {
  const g = layer.geometry;
  if (g.kind === "point") return;
  const fail = (what: string) => {
    throw new Error(`layer ${layer.name}: ${what}`);
  };
  if (g.featureOffsets[0] !== 0 || g.polyOffsets[0] !== 0 || g.ringOffsets[0] !== 0) fail("offsets must start at 0");
  if (g.featureOffsets[count] !== g.polyOffsets.length - 1) fail("featureOffsets must end at the polygon count");
  if (g.polyOffsets[g.polyOffsets.length - 1] !== g.ringOffsets.length - 1)
    fail("polyOffsets must end at the ring count");
  if (g.ringOffsets[g.ringOffsets.length - 1] !== g.coords.length >>> 1)
    fail("ringOffsets must end at the vertex count");
  for (let i = 0; i < count; i++) {
    if ((g.featureOffsets[i + 1] as number) <= (g.featureOffsets[i] as number)) fail(`feature ${i} has no polygon`);
  }
}

/** The layer's flatbush over its feature boxes (count > 0). */
export function indexOfBoxes(boxes: Float64Array, count: number): Flatbush {
  const fb = new Flatbush(count, INDEX_NODE_SIZE, Float64Array);
  for (let i = 0; i < count; i++) {
    fb.add(boxes[4 * i] as number, boxes[4 * i + 1] as number, boxes[4 * i + 2] as number, boxes[4 * i + 3] as number);
  }
  fb.finish();
  return fb;
}

/**
 * Features moved into the index's leaf order, whose leaf ids become the identity: a lookup walks neighbouring memory
 * and needs no id indirection. Boxes already sit at their leaf positions.
 */
export function toIndexOrder(layer: LayerInput, fb: Flatbush, count: number): LayerInput {
  const perm = renumberLeaves(fb, count);
  return { ...layer, geometry: permuteGeometry(layer.geometry, perm), row: (i) => layer.row(perm[i] as number) };
}

/** How many features the layer's syntheticField marks true (0 without one). */
export function countSynthetic(layer: LayerInput, count: number): number {
  if (layer.syntheticField === undefined) return 0;
  const k = layer.fields.indexOf(layer.syntheticField);
  if (k < 0) throw new Error(`layer ${layer.name}: syntheticField ${layer.syntheticField} is not one of its fields`);
  let n = 0;
  for (let i = 0; i < count; i++) if (layer.row(i)[k] === true) n++;
  return n;
}

/** The box around the layers that have features; all zeros when none has (a pack's bbox). */
export function packBox(layers: readonly { count: number; bbox: BBox }[]): BBox {
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const l of layers) {
    if (l.count === 0) continue;
    bbox[0] = Math.min(bbox[0], l.bbox[0]);
    bbox[1] = Math.min(bbox[1], l.bbox[1]);
    bbox[2] = Math.max(bbox[2], l.bbox[2]);
    bbox[3] = Math.max(bbox[3], l.bbox[3]);
  }
  if (!Number.isFinite(bbox[0])) bbox.fill(0);
  return bbox;
}
