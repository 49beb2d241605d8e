// A group's outline: its lots' outlines as one, shared boundaries dissolved, so a group reads as one site.
import polygonClipping from "polygon-clipping";
import type { Geom } from "polygon-clipping";
import type { AreaGeometry } from "../geo/types.ts";

const r7 = (x: number) => Math.round(x * 1e7) / 1e7;

/** The union of the outlines (GeoJSON, lon/lat to 1e-7); side by side where the library refuses degenerate input. */
export function unionOf(outlines: readonly AreaGeometry[]): AreaGeometry {
  const geoms = outlines.map((g) => g.coordinates as Geom);
  const [first, ...rest] = geoms;
  let merged: number[][][][];
  try {
    merged = first === undefined ? [] : polygonClipping.union(first, ...rest);
  } catch {
    // The library refuses a few degenerate inputs: the members side by side still draw the site.
    merged = geoms.flatMap((g) => (typeof g[0]?.[0]?.[0] === "number" ? [g as number[][][]] : (g as number[][][][])));
  }
  const rounded = merged.map((poly) => poly.map((ring) => ring.map((p) => [r7(p[0] as number), r7(p[1] as number)])));
  return rounded.length === 1
    ? { type: "Polygon", coordinates: rounded[0] as number[][][] }
    : { type: "MultiPolygon", coordinates: rounded };
}
