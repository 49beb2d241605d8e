// The generalised zoning of a v2 pack's overview pages as one MVT layer: each run of same-zone cells a rectangle.
import { CELLS_PER_DEGREE, type OverviewPage } from "../packs/paged/index.ts";
import { layerMinZoom } from "./layers.ts";
import { type CellMask, hiddenAt } from "./block-walk.ts";
import { BUFFER, EXTENT, type Projector, projector, type TileCoord } from "./math.ts";
import { emptyDictionary, grow } from "./merge.ts";
import { GEOM_POLYGON, type TileFeature, type TileLayer, zigzag } from "./mvt.ts";

// Zooms drawn from the overview (lots are drawn from z14); the zoning layer's own minimum zoom.
export const OVERVIEW_MIN_ZOOM = layerMinZoom("zoning");

const clamp = (v: number): number => Math.max(-BUFFER, Math.min(EXTENT + BUFFER, Math.round(v)));

/** The north-west (into `a`) and south-east (into `b`) corners of a page's run `i`, in tile units (y southward). */
export function runCorners(page: OverviewPage, i: number, project: Projector, a: Float64Array, b: Float64Array): void {
  const x = page.xs[i] as number;
  const y = page.ys[i] as number;
  project(x / CELLS_PER_DEGREE, (y + 1) / CELLS_PER_DEGREE, a, 0);
  project((x + (page.ns[i] as number)) / CELLS_PER_DEGREE, y / CELLS_PER_DEGREE, b, 0);
}

/**
 * A "zoning" layer (attribute `zone`) of the runs that reach into the tile, but a run whose centre is on a `hidden`
 * cell (a higher pack's land: runs are cells of about 100 m, so one is left out or drawn whole).
 */
export function overviewLayer(
  pages: readonly OverviewPage[],
  zones: readonly string[],
  tile: TileCoord,
  hidden: CellMask | null = null,
): TileLayer {
  const project = projector(tile);
  const a = new Float64Array(2);
  const b = new Float64Array(2);
  const dict = emptyDictionary();
  dict.keys.push("zone");
  const valueIndex = new Map<number, number>();
  const features: TileFeature[] = [];
  for (const page of pages) {
    for (let i = 0; i < page.ns.length; i++) {
      runCorners(page, i, project, a, b);
      const [x0, y0, x1, y1] = [
        clamp(a[0] as number),
        clamp(a[1] as number),
        clamp(b[0] as number),
        clamp(b[1] as number),
      ];
      if (x1 <= x0 || y1 <= y0) continue;
      if (hidden && hiddenAt(hidden, (x0 + x1) / 2, (y0 + y1) / 2)) continue;
      const code = page.zones[i] as number;
      let vi = valueIndex.get(code);
      if (vi === undefined) {
        vi = dict.values.push(zones[code] ?? "") - 1;
        valueIndex.set(code, vi);
      }
      features.push({
        id: features.length,
        type: GEOM_POLYGON,
        // MoveTo, LineTo x3, ClosePath: clockwise with y down, an exterior ring.
        geometry: [9, zigzag(x0), zigzag(y0), 26, zigzag(x1 - x0), 0, 0, zigzag(y1 - y0), zigzag(x0 - x1), 0, 15],
        tags: Uint32Array.of(0, vi),
      });
    }
  }
  dict.keyRemap = grow(dict.keyRemap, dict.keys.length);
  dict.valueRemap = grow(dict.valueRemap, dict.values.length);
  return { name: "zoning", features, dictionary: dict };
}
