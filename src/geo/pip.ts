import { columnsFromGeometry } from "./columns.ts";
import type { AreaGeometry, Columns } from "./types.ts";

// Even-odd crossing test over every ring of feature i, so holes and multi-part features need no special case.
export function pointInFeature(c: Columns, i: number, x: number, y: number): boolean {
  const coords = c.coords;
  const ringOffsets = c.ringOffsets;
  const r0 = c.polyOffsets[c.featureOffsets[i] as number] as number;
  const r1 = c.polyOffsets[c.featureOffsets[i + 1] as number] as number;
  let inside = false;
  for (let r = r0; r < r1; r++) {
    const v0 = ringOffsets[r] as number;
    const v1 = ringOffsets[r + 1] as number;
    const j = v1 - 1;
    let xj = coords[2 * j] as number;
    let yj = coords[2 * j + 1] as number;
    for (let v = v0; v < v1; v++) {
      const xi = coords[2 * v] as number;
      const yi = coords[2 * v + 1] as number;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      xj = xi;
      yj = yi;
    }
  }
  return inside;
}

export function pointInPolygon(g: AreaGeometry, lon: number, lat: number): boolean {
  return pointInFeature(columnsFromGeometry(g), 0, lon, lat);
}
