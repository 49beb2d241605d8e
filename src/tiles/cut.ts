// Cuts one vector tile straight from a pack: flatbush box query per layer, project, clip, snap, encode.
import { featuresInBox } from "../packs/lookup.ts";
import type { Columns } from "../geo/types.ts";
import type { Pack } from "../packs/types.ts";
import { clipRing } from "./clip.ts";
import { dictionaryOf } from "./dictionary.ts";
import { layerMinZoom, TILE_MAX_ZOOM } from "./layers.ts";
import { BUFFER, EXTENT, latToY, projector, type TileCoord, type TileFrame, tileBBox, tileFrame } from "./math.ts";
import { lineGeometry } from "./line.ts";
import {
  encodeTile,
  GEOM_LINESTRING,
  GEOM_POINT,
  GEOM_POLYGON,
  type TileFeature,
  type TileLayer,
  zigzag,
} from "./mvt.ts";

const LO = -BUFFER;
const HI = EXTENT + BUFFER;
// Polygons whose projected box is under this many units a side are dropped (sub-pixel at this zoom).
const MIN_FEATURE_UNITS = 2;

// Reused between rings: projected vertices, then the ring snapped to the grid (x, y pairs).
let projected = new Float64Array(1024);
let snapped = new Int32Array(1024);

/**
 * Rounds a ring to the integer grid, dropping vertices within `tol` units of the last kept one and
 * collinear ones (at low zoom many vertices share a cell: the per-zoom simplification); returns the count.
 */
function snapInto(pts: ArrayLike<number>, n: number, tol: number): number {
  if (snapped.length < 2 * n) snapped = new Int32Array(4 * n);
  const out = snapped;
  const tol2 = tol * tol;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.round(pts[2 * i] as number);
    const y = Math.round(pts[2 * i + 1] as number);
    if (k >= 1) {
      const dx = x - (out[2 * k - 2] as number);
      const dy = y - (out[2 * k - 1] as number);
      if (dx * dx + dy * dy <= tol2) continue;
    }
    if (k >= 2) {
      const ax = out[2 * k - 4] as number;
      const ay = out[2 * k - 3] as number;
      const bx = out[2 * k - 2] as number;
      const by = out[2 * k - 1] as number;
      if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) === 0) {
        out[2 * k - 2] = x;
        out[2 * k - 1] = y;
        continue;
      }
    }
    out[2 * k] = x;
    out[2 * k + 1] = y;
    k++;
  }
  // The closing vertex is implied: drop a last vertex equal to the first.
  if (k >= 2 && out[0] === out[2 * k - 2] && out[1] === out[2 * k - 1]) k--;
  return k;
}

/** Twice the signed area of the snapped ring (positive = clockwise on screen, y down: an MVT exterior ring). */
function snappedArea2(n: number): number {
  let a = 0;
  for (let i = 0, j = n - 1; i < n; j = i++)
    a +=
      (snapped[2 * j] as number) * (snapped[2 * i + 1] as number) -
      (snapped[2 * i] as number) * (snapped[2 * j + 1] as number);
  return a;
}

/** MVT geometry commands appended one feature after another: `data` up to `length` holds them. */
export type CommandSink = { data: Uint32Array; length: number };

export const commandSink = (): CommandSink => ({ data: new Uint32Array(4096), length: 0 });

function reserve(sink: CommandSink, more: number): Uint32Array {
  if (sink.length + more > sink.data.length) {
    const bigger = new Uint32Array(2 * (sink.length + more));
    bigger.set(sink.data.subarray(0, sink.length));
    sink.data = bigger;
  }
  return sink.data;
}

// The last vertex written for the feature being cut (MVT deltas run on from ring to ring).
let cursorX = 0;
let cursorY = 0;

/** Appends the snapped ring as MoveTo, LineTo and ClosePath commands, reversed when its winding is wrong. */
function emitRing(sink: CommandSink, n: number, reverse: boolean): void {
  const out = reserve(sink, 2 * n + 3);
  let at = sink.length;
  for (let s = 0; s < n; s++) {
    const i = reverse ? n - 1 - s : s;
    const x = snapped[2 * i] as number;
    const y = snapped[2 * i + 1] as number;
    if (s === 0) out[at++] = 9; // MoveTo, 1 point
    out[at++] = zigzag(x - cursorX);
    out[at++] = zigzag(y - cursorY);
    if (s === 0) out[at++] = 2 | ((n - 1) << 3); // LineTo, n-1 points
    cursorX = x;
    cursorY = y;
  }
  out[at++] = 15; // ClosePath
  sink.length = at;
}

/**
 * Appends feature i's polygon commands in tile units to `sink`; false (nothing appended) when nothing is drawn.
 * `mercY`, when given, holds latToY of every vertex of the layer (a v2 page keeps it), else it is computed here.
 */
export function polygonInto(
  layer: Columns,
  i: number,
  frame: TileFrame,
  tol: number,
  sink: CommandSink,
  mercY: Float64Array | null = null,
): boolean {
  const { coords, ringOffsets, polyOffsets, featureOffsets } = layer;
  const { scale, ox, oy } = frame;
  const begin = sink.length;
  cursorX = 0;
  cursorY = 0;
  for (let p = featureOffsets[i] as number; p < (featureOffsets[i + 1] as number); p++) {
    const r0 = polyOffsets[p] as number;
    const r1 = polyOffsets[p + 1] as number;
    for (let r = r0; r < r1; r++) {
      const v0 = ringOffsets[r] as number;
      const n = (ringOffsets[r + 1] as number) - v0;
      if (projected.length < 2 * n) projected = new Float64Array(4 * n);
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (let v = 0; v < n; v++) {
        // The arithmetic of projector(), so either path lands on the same units.
        const x = (((coords[2 * (v0 + v)] as number) + 180) / 360) * scale - ox;
        const y = (mercY ? (mercY[v0 + v] as number) : latToY(coords[2 * (v0 + v) + 1] as number)) * scale - oy;
        projected[2 * v] = x;
        projected[2 * v + 1] = y;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      const exterior = r === r0;
      const tiny = maxX - minX < MIN_FEATURE_UNITS && maxY - minY < MIN_FEATURE_UNITS;
      const outside = maxX < LO || minX > HI || maxY < LO || minY > HI;
      // Without its exterior a polygon's holes are not drawn either.
      if (tiny || outside) {
        if (exterior) break;
        continue;
      }
      let k: number;
      if (minX >= LO && maxX <= HI && minY >= LO && maxY <= HI) k = snapInto(projected, n, tol);
      else {
        const clipped = clipRing(projected, n, LO, HI);
        k = snapInto(clipped.points, clipped.count, tol);
      }
      const area = k >= 3 ? snappedArea2(k) : 0;
      if (area === 0) {
        if (exterior) break;
        continue;
      }
      emitRing(sink, k, area > 0 !== exterior);
    }
  }
  return sink.length > begin;
}

const v1Sink = commandSink();

/** Feature i's polygon commands in tile units, or null when nothing of it is drawn. */
export function polygonGeometry(layer: Columns, i: number, frame: TileFrame, tol: number): number[] | null {
  v1Sink.length = 0;
  if (!polygonInto(layer, i, frame, tol, v1Sink)) return null;
  const n = v1Sink.length;
  const data = v1Sink.data;
  const out: number[] = new Array(n);
  for (let k = 0; k < n; k++) out[k] = data[k] as number;
  return out;
}

/** The tile's layers (one per pack layer present at this zoom), features in pack index order. */
export function tileLayers(pack: Pack, tile: TileCoord): TileLayer[] {
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  const project = projector(tile);
  const frame = tileFrame(tile);
  // Below the maximum zoom, vertices closer than a unit collapse; at it, only exact duplicates do.
  const tol = tile.z >= TILE_MAX_ZOOM ? 0 : 1;
  const point = new Float64Array(2);
  const out: TileLayer[] = [];
  for (const layer of pack.layers.values()) {
    if (tile.z < layerMinZoom(layer.name)) continue;
    const dictionary = dictionaryOf(layer);
    const features: TileFeature[] = [];
    for (const i of featuresInBox(layer, w, s, e, n)) {
      let geometry: number[] | null;
      if (layer.kind === "point") {
        project(layer.coords[2 * i] as number, layer.coords[2 * i + 1] as number, point, 0);
        const x = Math.round(point[0] as number);
        const y = Math.round(point[1] as number);
        geometry = x < LO || x > HI || y < LO || y > HI ? null : [9, zigzag(x), zigzag(y)];
      } else if (layer.kind === "line") geometry = lineGeometry(layer, i, frame, tol, LO, HI);
      else geometry = polygonGeometry(layer, i, frame, tol);
      if (geometry === null) continue;
      features.push({
        id: i,
        type: layer.kind === "point" ? GEOM_POINT : layer.kind === "line" ? GEOM_LINESTRING : GEOM_POLYGON,
        geometry,
        tags: dictionary.tagsOf(i),
      });
    }
    out.push({ name: layer.name, features, dictionary });
  }
  return out;
}

/** The encoded tile, or null when no layer has a feature in it. */
export function cutTile(pack: Pack, tile: TileCoord): Uint8Array | null {
  const layers = tileLayers(pack, tile);
  if (layers.every((l) => l.features.length === 0)) return null;
  return encodeTile(layers);
}
