// Area-weighted centroids of features and geometries (lon, lat).
import { featureVertexRange } from "./bbox.ts";
import { columnsFromGeometry, forEachRing } from "./columns.ts";
import type { AreaGeometry, Columns } from "./types.ts";

const RAD = Math.PI / 180;

// Area-weighted centroid of feature i, computed in a local equirectangular frame so longitude is not over-weighted.
export function featureCentroid(c: Columns, i: number): [number, number] {
  const coords = c.coords;
  const [vStart, vEnd] = featureVertexRange(c, i);
  const lon0 = coords[2 * vStart] as number;
  const lat0 = coords[2 * vStart + 1] as number;
  const kx = Math.cos(lat0 * RAD);
  let sa = 0,
    sx = 0,
    sy = 0;
  let outerSign = 1;
  forEachRing(c, i, (v0, v1, outer) => {
    let a = 0,
      cx = 0,
      cy = 0;
    let j = v1 - 1;
    for (let v = v0; v < v1; j = v++) {
      const xj = ((coords[2 * j] as number) - lon0) * kx;
      const yj = (coords[2 * j + 1] as number) - lat0;
      const xv = ((coords[2 * v] as number) - lon0) * kx;
      const yv = (coords[2 * v + 1] as number) - lat0;
      const cross = xj * yv - xv * yj;
      a += cross;
      cx += (xj + xv) * cross;
      cy += (yj + yv) * cross;
    }
    // Holes count negative relative to their outer ring, whatever the winding on file.
    if (outer) outerSign = a < 0 ? -1 : 1;
    const sign = outer ? outerSign : a * outerSign > 0 ? -outerSign : outerSign;
    sa += sign * a;
    sx += sign * cx;
    sy += sign * cy;
  });
  if (Math.abs(sa) < 1e-18) {
    let mx = 0,
      my = 0;
    for (let v = vStart; v < vEnd; v++) {
      mx += coords[2 * v] as number;
      my += coords[2 * v + 1] as number;
    }
    const k = Math.max(1, vEnd - vStart);
    return [mx / k, my / k];
  }
  return [lon0 + sx / (3 * sa) / kx, lat0 + sy / (3 * sa)];
}

export function centroid(g: AreaGeometry): [number, number] {
  return featureCentroid(columnsFromGeometry(g), 0);
}
