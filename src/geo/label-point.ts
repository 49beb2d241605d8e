// A point inside a feature: where a lot "is" for suburbs, search areas and map labels.
import { featureCentroid } from "./centroid.ts";
import { forEachRing } from "./columns.ts";
import { pointInFeature } from "./pip.ts";
import type { Columns } from "./types.ts";

/**
 * The centroid when it lies inside feature i (most lots); otherwise the middle of the widest inside span of the
 * horizontal line through the centroid (an L- or U-shaped lot), so the point is always on the lot.
 */
export function featureLabelPoint(c: Columns, i: number): [number, number] {
  const [cx, cy] = featureCentroid(c, i);
  if (pointInFeature(c, i, cx, cy)) return [cx, cy];
  const xs: number[] = [];
  const coords = c.coords;
  forEachRing(c, i, (v0, v1) => {
    let j = v1 - 1;
    for (let v = v0; v < v1; j = v++) {
      const xi = coords[2 * v] as number;
      const yi = coords[2 * v + 1] as number;
      const xj = coords[2 * j] as number;
      const yj = coords[2 * j + 1] as number;
      // Half-open on y, as the even-odd test, so a vertex on the line is counted once.
      if (yi > cy !== yj > cy) xs.push(xi + ((cy - yi) * (xj - xi)) / (yj - yi));
    }
  });
  xs.sort((a, b) => a - b);
  let best: [number, number] | null = null;
  let width = -1;
  for (let k = 0; k + 1 < xs.length; k += 2) {
    const w = (xs[k + 1] as number) - (xs[k] as number);
    if (w > width) {
      width = w;
      best = [((xs[k] as number) + (xs[k + 1] as number)) / 2, cy];
    }
  }
  return best ?? [cx, cy];
}
