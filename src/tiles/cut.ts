// Cuts one vector tile straight from a pack: flatbush box query per layer, project, clip, snap, encode.
import { featureAreaM2 } from "../geo/area.ts";
import { featuresInBox } from "../packs/lookup.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { clipRing, reverseRing, ringArea2, snapRing } from "./clip.ts";
import { layerMinZoom, TILE_MAX_ZOOM, tileProps } from "./layers.ts";
import { BUFFER, EXTENT, projector, tileBBox, type TileCoord } from "./math.ts";
import { encodeTile, GEOM_POINT, GEOM_POLYGON, type TileFeature, type TileLayer } from "./mvt.ts";

const LO = -BUFFER;
const HI = EXTENT + BUFFER;
// Polygons whose projected box is under this many units a side are dropped (sub-pixel at this zoom).
const MIN_FEATURE_UNITS = 2;

const scratch = new Float64Array(4);

function polygonFeature(
  layer: Layer,
  i: number,
  project: ReturnType<typeof projector>,
  tol: number,
): TileFeature | null {
  const { coords, ringOffsets, polyOffsets, featureOffsets } = layer;
  const rings: number[][] = [];
  for (let p = featureOffsets[i] as number; p < (featureOffsets[i + 1] as number); p++) {
    const r0 = polyOffsets[p] as number;
    const r1 = polyOffsets[p + 1] as number;
    for (let r = r0; r < r1; r++) {
      const v0 = ringOffsets[r] as number;
      const v1 = ringOffsets[r + 1] as number;
      const pts: number[] = new Array((v1 - v0) * 2);
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (let v = v0; v < v1; v++) {
        project(coords[2 * v] as number, coords[2 * v + 1] as number, scratch, 0);
        const x = scratch[0] as number;
        const y = scratch[1] as number;
        pts[2 * (v - v0)] = x;
        pts[2 * (v - v0) + 1] = y;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      const exterior = r === r0;
      const tiny = maxX - minX < MIN_FEATURE_UNITS && maxY - minY < MIN_FEATURE_UNITS;
      const outside = maxX < LO || minX > HI || maxY < LO || minY > HI;
      if (tiny || outside) {
        if (exterior) break; // no exterior, no holes
        continue;
      }
      const inside = minX >= LO && maxX <= HI && minY >= LO && maxY <= HI;
      const snapped = snapRing(inside ? pts : clipRing(pts, LO, HI), tol);
      if (snapped.length < 6) {
        if (exterior) break;
        continue;
      }
      const area = ringArea2(snapped);
      if (area === 0) {
        if (exterior) break;
        continue;
      }
      rings.push(area > 0 === exterior ? snapped : reverseRing(snapped));
    }
  }
  if (rings.length === 0) return null;
  return { id: i, type: GEOM_POLYGON, rings, props: tileProps(layer, i) };
}

function pointFeature(layer: Layer, i: number, project: ReturnType<typeof projector>): TileFeature | null {
  project(layer.coords[2 * i] as number, layer.coords[2 * i + 1] as number, scratch, 0);
  const x = Math.round(scratch[0] as number);
  const y = Math.round(scratch[1] as number);
  if (x < LO || x > HI || y < LO || y > HI) return null;
  return { id: i, type: GEOM_POINT, rings: [[x, y]], props: tileProps(layer, i) };
}

/** The tile's layers (one per pack layer present at this zoom), features in pack index order. */
export function tileLayers(pack: Pack, tile: TileCoord): TileLayer[] {
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  const project = projector(tile);
  // Below the maximum zoom, vertices closer than a unit collapse; at it, only exact duplicates do.
  const tol = tile.z >= TILE_MAX_ZOOM ? 0 : 1;
  const out: TileLayer[] = [];
  for (const layer of pack.layers.values()) {
    if (tile.z < layerMinZoom(layer.name)) continue;
    const features: TileFeature[] = [];
    for (const i of featuresInBox(layer, w, s, e, n)) {
      const f = layer.kind === "point" ? pointFeature(layer, i, project) : polygonFeature(layer, i, project, tol);
      if (f === null) continue;
      // The pack's own area when it has one (the demo cadastre does); computing it per lot doubles the tile's cost.
      if (layer.name === "parcels") {
        const given = f.props.area_m2;
        f.props.area_m2 = Math.round(typeof given === "number" && given > 0 ? given : featureAreaM2(layer, i));
      }
      features.push(f);
    }
    out.push({ name: layer.name, features });
  }
  return out;
}

/** The encoded tile, or null when no layer has a feature in it. */
export function cutTile(pack: Pack, tile: TileCoord): Uint8Array | null {
  const layers = tileLayers(pack, tile);
  if (layers.every((l) => l.features.length === 0)) return null;
  return encodeTile(layers);
}
