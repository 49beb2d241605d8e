// Generator of hostile but valid polygons: a thick diamond spiral, whose long diagonal edges have boxes that nest
// (an edge's box holds every inner winding's edges on its side), and its twin with one vertex pushed across a winding.
// Pure TypeScript, no node: imports, so tests in workerd use it too.

export interface SpiralOptions {
  /** Centre in [longitude, latitude]; Sydney by default. */
  center?: [number, number];
  /** Degrees per spiral unit (a quarter turn widens the spiral by one unit, the band is two units wide). */
  unit?: number;
  /** Push one vertex of the inner arm a unit past the outer arm of its own winding: two edges cross it. */
  crossing?: boolean;
}

// Quarter-turn directions of the diamond's corners: east, north, west, south.
const DIRS = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
] as const;

/** A closed ring of exactly `positions` positions (positions - 1 distinct vertices, at least 9). */
export function spiralRing(positions: number, options: SpiralOptions = {}): [number, number][] {
  const { center = [151.2, -33.87], unit = 1e-6, crossing = false } = options;
  const vertices = positions - 1;
  if (!Number.isInteger(vertices) || vertices < 8) throw new Error("a spiral needs at least 9 positions");
  // Outer arm A_k at radius k + 3 going out, inner arm B_k at radius k + 1 coming back, both on the k-th axis.
  const last = Math.floor(vertices / 2) - 1;
  const at = (k: number, radius: number): [number, number] => {
    const [dx, dy] = DIRS[k % 4] as readonly [number, number];
    // Whole multiples of the unit, printed short: the geometry stays exact and the JSON stays small.
    return [Number((center[0] + dx * radius * unit).toFixed(9)), Number((center[1] + dy * radius * unit).toFixed(9))];
  };
  const ring: [number, number][] = [];
  for (let k = 0; k <= last; k++) ring.push(at(k, k + 3));
  // An odd count: a straight-through vertex on the outer end's radial edge (redundant, but valid).
  if (vertices % 2 === 1) ring.push(at(last, last + 2));
  const pushed = Math.floor(last / 2);
  for (let k = last; k >= 0; k--) ring.push(at(k, crossing && k === pushed ? k + 4 : k + 1));
  ring.push(ring[0] as [number, number]);
  return ring;
}

/** The edge positions (as validity messages count them) that the crossing twin's pushed vertex joins. */
export function pushedVertexPosition(positions: number): number {
  const vertices = positions - 1;
  const last = Math.floor(vertices / 2) - 1;
  const pushed = Math.floor(last / 2);
  return last + 1 + (vertices % 2) + (last - pushed);
}
