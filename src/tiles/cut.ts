// Cuts one tile from a pack layer: features found through the layer's flatbush index, projected to tile
// units, simplified (one unit tolerance, so coarser at lower zooms) and clipped to the tile plus a buffer.
import { featuresInBox } from "../packs/lookup.ts";
import type { Layer } from "../packs/types.ts";
import { BUFFER, EXTENT, type TileAddress, latToY, lonToX, tileBBox } from "./coords.ts";

/** One tile feature: rings of integer tile coordinates (x, y interleaved), outer rings first per polygon. */
export type TileFeature = {
  id: number;
  type: "point" | "polygon";
  rings: Int32Array[];
  props: Record<string, unknown>;
};

type Projector = { n: number; x0: number; y0: number };

// Douglas-Peucker over a closed ring of integer points, keeping the first point; tolerance in tile units.
function simplify(pts: Int32Array, sqTol: number): Int32Array {
  const count = pts.length >> 1;
  if (count <= 4) return pts;
  const keep = new Uint8Array(count);
  keep[0] = 1;
  keep[count - 1] = 1;
  const stack: number[] = [0, count - 1];
  while (stack.length > 0) {
    const last = stack.pop() as number;
    const first = stack.pop() as number;
    const ax = pts[2 * first] as number;
    const ay = pts[2 * first + 1] as number;
    const bx = pts[2 * last] as number;
    const by = pts[2 * last + 1] as number;
    let max = sqTol;
    let index = -1;
    for (let i = first + 1; i < last; i++) {
      const d = sqSegDist(pts[2 * i] as number, pts[2 * i + 1] as number, ax, ay, bx, by);
      if (d > max) {
        max = d;
        index = i;
      }
    }
    if (index < 0) continue;
    keep[index] = 1;
    stack.push(first, index, index, last);
  }
  let k = 0;
  for (let i = 0; i < count; i++) if (keep[i]) k++;
  const out = new Int32Array(2 * k);
  let j = 0;
  for (let i = 0; i < count; i++)
    if (keep[i]) {
      out[j++] = pts[2 * i] as number;
      out[j++] = pts[2 * i + 1] as number;
    }
  return out;
}

function sqSegDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let x = ax;
  let y = ay;
  const dx = bx - ax;
  const dy = by - ay;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  return (px - x) ** 2 + (py - y) ** 2;
}

// Sutherland-Hodgman against one axis-aligned edge; `axis` 0 is x, 1 is y; keeps points with sign*(v-k) <= 0.
function clipEdge(pts: number[], axis: 0 | 1, k: number, keepBelow: boolean): number[] {
  const out: number[] = [];
  const n = pts.length >> 1;
  if (n === 0) return out;
  const inside = (i: number) => (keepBelow ? (pts[2 * i + axis] as number) <= k : (pts[2 * i + axis] as number) >= k);
  for (let i = 0; i < n; i++) {
    const j = (i + n - 1) % n;
    const ci = inside(i);
    const cj = inside(j);
    if (ci !== cj) {
      const ax = pts[2 * j] as number;
      const ay = pts[2 * j + 1] as number;
      const bx = pts[2 * i] as number;
      const by = pts[2 * i + 1] as number;
      const t = axis === 0 ? (k - ax) / (bx - ax) : (k - ay) / (by - ay);
      out.push(axis === 0 ? k : Math.round(ax + (bx - ax) * t), axis === 1 ? k : Math.round(ay + (by - ay) * t));
    }
    if (ci) out.push(pts[2 * i] as number, pts[2 * i + 1] as number);
  }
  return out;
}

function clipRing(ring: Int32Array, lo: number, hi: number): Int32Array {
  let inBox = true;
  for (let i = 0; i < ring.length; i++) {
    const v = ring[i] as number;
    if (v < lo || v > hi) {
      inBox = false;
      break;
    }
  }
  if (inBox) return ring;
  let pts = Array.from(ring);
  pts = clipEdge(pts, 0, lo, false);
  pts = clipEdge(pts, 0, hi, true);
  pts = clipEdge(pts, 1, lo, false);
  pts = clipEdge(pts, 1, hi, true);
  return Int32Array.from(pts);
}

/** Twice the signed area in tile units (positive = clockwise on screen, y down: an MVT exterior ring). */
export function ringArea2(r: Int32Array): number {
  let a = 0;
  const n = r.length >> 1;
  for (let i = 0, j = n - 1; i < n; j = i++)
    a += (r[2 * j] as number) * (r[2 * i + 1] as number) - (r[2 * i] as number) * (r[2 * j + 1] as number);
  return a;
}

function reverse(r: Int32Array): Int32Array {
  const n = r.length >> 1;
  const out = new Int32Array(r.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = r[2 * (n - 1 - i)] as number;
    out[2 * i + 1] = r[2 * (n - 1 - i) + 1] as number;
  }
  return out;
}

// Projects a ring's vertices to integer tile units, dropping repeated points.
function project(coords: Float64Array, v0: number, v1: number, p: Projector): Int32Array {
  const out = new Int32Array(2 * (v1 - v0));
  let k = 0;
  for (let v = v0; v < v1; v++) {
    const x = Math.round((lonToX(coords[2 * v] as number) * p.n - p.x0) * EXTENT);
    const y = Math.round((latToY(coords[2 * v + 1] as number) * p.n - p.y0) * EXTENT);
    if (k > 0 && out[k - 2] === x && out[k - 1] === y) continue;
    out[k++] = x;
    out[k++] = y;
  }
  return out.subarray(0, k);
}

function polygonRings(layer: Layer, i: number, p: Projector): Int32Array[] {
  const rings: Int32Array[] = [];
  const lo = -BUFFER;
  const hi = EXTENT + BUFFER;
  const p0 = layer.featureOffsets[i] as number;
  const p1 = layer.featureOffsets[i + 1] as number;
  for (let poly = p0; poly < p1; poly++) {
    const r0 = layer.polyOffsets[poly] as number;
    const r1 = layer.polyOffsets[poly + 1] as number;
    for (let r = r0; r < r1; r++) {
      const outer = r === r0;
      let ring = project(layer.coords, layer.ringOffsets[r] as number, layer.ringOffsets[r + 1] as number, p);
      ring = clipRing(simplify(ring, 1), lo, hi);
      const a = ring.length >= 6 ? ringArea2(ring) : 0;
      if (a === 0) {
        if (outer) break; // an exterior ring that vanished takes its holes with it
        continue;
      }
      rings.push(outer === a > 0 ? ring : reverse(ring));
    }
  }
  return rings;
}

function scalarProps(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props))
    if (typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) out[k] = v;
  return out;
}

/** The layer's features in tile `t`, in feature order; empty when none reaches the tile. */
export function cutLayer(layer: Layer, t: TileAddress): TileFeature[] {
  const [w, s, e, n] = tileBBox(t, BUFFER);
  const p: Projector = { n: 2 ** t.z, x0: t.x, y0: t.y };
  const out: TileFeature[] = [];
  for (const i of featuresInBox(layer, w, s, e, n)) {
    if (layer.kind === "point") {
      const ring = project(layer.coords, i, i + 1, p);
      out.push({ id: i, type: "point", rings: [ring], props: scalarProps(layer.props(i)) });
      continue;
    }
    const rings = polygonRings(layer, i, p);
    if (rings.length > 0) out.push({ id: i, type: "polygon", rings, props: scalarProps(layer.props(i)) });
  }
  return out;
}
