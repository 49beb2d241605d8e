// Cuts one vector tile straight from a pack: flatbush box query per layer, project, clip, snap, encode.
import { featuresInBox } from "../packs/lookup.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { clipRing } from "./clip.ts";
import { dictionaryOf } from "./dictionary.ts";
import { layerMinZoom, TILE_MAX_ZOOM } from "./layers.ts";
import { BUFFER, EXTENT, projector, tileBBox, type TileCoord } from "./math.ts";
import { encodeTile, GEOM_POINT, GEOM_POLYGON, type TileFeature, type TileLayer } from "./mvt.ts";

const LO = -BUFFER;
const HI = EXTENT + BUFFER;
// Polygons whose projected box is under this many units a side are dropped (sub-pixel at this zoom).
const MIN_FEATURE_UNITS = 2;

// Reused between rings: projected vertices, then the ring snapped to the grid (x, y pairs).
let projected = new Float64Array(1024);
let snapped = new Int32Array(1024);

type Project = ReturnType<typeof projector>;

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

const zigzag = (v: number) => (v << 1) ^ (v >> 31);

/** Appends the snapped ring as MoveTo, LineTo and ClosePath commands, reversed when its winding is wrong. */
function emitRing(geom: number[], n: number, reverse: boolean, cursor: { x: number; y: number }): void {
  for (let s = 0; s < n; s++) {
    const i = reverse ? n - 1 - s : s;
    const x = snapped[2 * i] as number;
    const y = snapped[2 * i + 1] as number;
    if (s === 0) geom.push(9); // MoveTo, 1 point
    geom.push(zigzag(x - cursor.x), zigzag(y - cursor.y));
    if (s === 0) geom.push(2 | ((n - 1) << 3)); // LineTo, n-1 points
    cursor.x = x;
    cursor.y = y;
  }
  geom.push(15); // ClosePath
}

export function polygonGeometry(layer: Layer, i: number, project: Project, tol: number): number[] | null {
  const { coords, ringOffsets, polyOffsets, featureOffsets } = layer;
  const geom: number[] = [];
  const cursor = { x: 0, y: 0 };
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
        project(coords[2 * (v0 + v)] as number, coords[2 * (v0 + v) + 1] as number, projected, 2 * v);
        const x = projected[2 * v] as number;
        const y = projected[2 * v + 1] as number;
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
        const clipped = clipRing(Array.from(projected.subarray(0, 2 * n)), LO, HI);
        k = snapInto(clipped, clipped.length / 2, tol);
      }
      const area = k >= 3 ? snappedArea2(k) : 0;
      if (area === 0) {
        if (exterior) break;
        continue;
      }
      emitRing(geom, k, area > 0 !== exterior, cursor);
    }
  }
  return geom.length > 0 ? geom : null;
}

/** The tile's layers (one per pack layer present at this zoom), features in pack index order. */
export function tileLayers(pack: Pack, tile: TileCoord): TileLayer[] {
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  const project = projector(tile);
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
      } else geometry = polygonGeometry(layer, i, project, tol);
      if (geometry === null) continue;
      features.push({
        id: i,
        type: layer.kind === "point" ? GEOM_POINT : GEOM_POLYGON,
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
