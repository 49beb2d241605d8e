// Exact segment predicates shared by the validity check and its sweep.
import { orient2d } from "robust-predicates";

// Exact orientation of c against the directed line a->b: > 0 left, < 0 right, 0 on the line (y up).
// robust-predicates' orient2d is positive for clockwise in y-up axes (counterclockwise in y-down), hence the minus.
export const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  -Math.sign(orient2d(ax, ay, bx, by, cx, cy));

const within = (a: number, b: number, c: number) => (a <= c && c <= b) || (b <= c && c <= a);

/** Where segments ab and cd meet (touching and collinear overlap included), or null when they are apart. */
export function segmentsMeet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): [number, number] | null {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) {
    // A proper crossing: the point is only for the message, so floating arithmetic is enough.
    const t = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / ((bx - ax) * (dy - cy) - (by - ay) * (dx - cx));
    return [ax + t * (bx - ax), ay + t * (by - ay)];
  }
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    within(px, qx, rx) && within(py, qy, ry);
  if (o1 === 0 && on(ax, ay, bx, by, cx, cy)) return [cx, cy];
  if (o2 === 0 && on(ax, ay, bx, by, dx, dy)) return [dx, dy];
  if (o3 === 0 && on(cx, cy, dx, dy, ax, ay)) return [ax, ay];
  if (o4 === 0 && on(cx, cy, dx, dy, bx, by)) return [bx, by];
  return null;
}
