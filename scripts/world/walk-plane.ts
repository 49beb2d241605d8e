// The one plane the world's walking distances are measured on: lon/lat scaled to metres at Sydney's latitude. Walking
// and straight-line distances are both Euclidean in it, so a walk (a chain of straight legs) is never shorter than the
// straight line between its ends; over the world's span it is within 0.6% of the great-circle distance.
const KY = 111_195.08; // metres per degree of latitude (mean Earth radius 6,371,008.8 m)
const LAT0 = -33.85; // the middle of Greater Sydney
const KX = KY * Math.cos((LAT0 * Math.PI) / 180);

export const px = (lon: number): number => lon * KX;
export const py = (lat: number): number => lat * KY;

/** The point of segment (ax, ay)-(bx, by) nearest (x, y), as its parameter 0..1. */
export function nearestT(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return 0;
  return Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len2));
}

/** Metres from (x, y) to the convex quad q (8 numbers: 4 corners in order); 0 inside it. */
export function quadDistance(x: number, y: number, q: ArrayLike<number>, at = 0): number {
  let inside = true;
  let sign = 0;
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 4; k++) {
    const ax = q[at + 2 * k] as number;
    const ay = q[at + 2 * k + 1] as number;
    const bx = q[at + ((2 * k + 2) % 8)] as number;
    const by = q[at + ((2 * k + 3) % 8)] as number;
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (cross !== 0) {
      const s = Math.sign(cross);
      if (sign === 0) sign = s;
      else if (s !== sign) inside = false;
    }
    const t = nearestT(x, y, ax, ay, bx, by);
    best = Math.min(best, Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
  }
  return inside ? 0 : best;
}

/** The lon/lat of a point of the walk plane (for tests and drawings). */
export const lonOf = (x: number): number => x / KX;
export const latOf = (y: number): number => y / KY;
