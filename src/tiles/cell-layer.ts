// A grid of zoned cells as one MVT layer: each zone's 4-connected regions (cell-rings.ts) as one multipolygon feature,
// so no edge is drawn between two cells of one zone (the low zooms' overviews, issue 49).
import { cellPolygons, type CellPolygon } from "./cell-rings.ts";
import { emptyDictionary, grow } from "./merge.ts";
import { GEOM_POLYGON, type TileFeature, type TileLayer, zigzag } from "./mvt.ts";

/** A grid vertex's tile unit along one axis (column index to x, row index to y). */
export type VertexUnit = (i: number) => number;

/** MVT commands of polygons of cell rings: each ring a MoveTo, LineTo to each further corner, ClosePath. */
function ringsGeometry(polygons: readonly CellPolygon[], ux: VertexUnit, uy: VertexUnit): number[] {
  const geometry: number[] = [];
  let [cx, cy] = [0, 0];
  for (const rings of polygons)
    for (const ring of rings) {
      const n = ring.length / 2;
      for (let k = 0; k < n; k++) {
        const [x, y] = [ux(ring[2 * k] as number), uy(ring[2 * k + 1] as number)];
        if (k === 0) geometry.push(9);
        else if (k === 1) geometry.push(((n - 1) << 3) | 2);
        geometry.push(zigzag(x - cx), zigzag(y - cy));
        [cx, cy] = [x, y];
      }
      geometry.push(15);
    }
  return geometry;
}

/** Layer `name` (attribute `zone`) of `zone` (`grid` cells a row, codes into `zones`, -1 empty), one feature a zone. */
export function cellsLayer(
  name: string,
  zone: Int32Array,
  grid: number,
  zones: readonly string[],
  ux: VertexUnit,
  uy: VertexUnit,
): TileLayer {
  const dict = emptyDictionary();
  dict.keys.push("zone");
  const features: TileFeature[] = [];
  for (const [code, polygons] of cellPolygons(zone, grid)) {
    const vi = dict.values.push(zones[code] ?? "") - 1;
    features.push({
      id: features.length,
      type: GEOM_POLYGON,
      geometry: ringsGeometry(polygons, ux, uy),
      tags: Uint32Array.of(0, vi),
    });
  }
  dict.keyRemap = grow(dict.keyRemap, dict.keys.length);
  dict.valueRemap = grow(dict.valueRemap, dict.values.length);
  return { name, features, dictionary: dict };
}
