// The outlines of a grid of zoned cells: each 4-connected region of one zone as one polygon, an exterior ring and its
// holes. Drawn as rectangles, the edges where two of one zone's rectangles met were stroked by the map's antialiasing
// over a translucent fill, a faint line each: rows of them striped the overview at z10 (issue 49).

// Directions E, S, W, N (y down); a cell's side is named by the direction its edge is walked with the cell on the right.
const dx = (d: number) => (d === 0 ? 1 : d === 2 ? -1 : 0);
const dy = (d: number) => (d === 1 ? 1 : d === 3 ? -1 : 0);
// The corner, relative to the cell's north-west one, where the edge on each side starts.
const sx = (d: number) => (d === 1 || d === 2 ? 1 : 0);
const sy = (d: number) => (d >= 2 ? 1 : 0);

/** A ring's corners as grid vertices [i0, j0, i1, j1, ...] (vertex i, j is cell column i's and row j's north-west). */
export type CellRing = number[];
/** An exterior ring (clockwise with y down) followed by its holes. */
export type CellPolygon = CellRing[];

/** Each zone's regions of `zone` (`grid` cells a row, row-major, -1 empty), keyed by zone code, in scan order. */
export function cellPolygons(zone: Int32Array, grid: number): Map<number, CellPolygon[]> {
  const rows = zone.length / grid;
  const at = (c: number, r: number) => (c >= 0 && c < grid && r >= 0 && r < rows ? (zone[r * grid + c] as number) : -1);
  const region = regions(zone, grid);
  const used = new Uint8Array(zone.length * 4);
  const rings = new Map<number, { exterior: CellRing[]; holes: CellRing[] }>();
  for (let cell = 0; cell < zone.length; cell++) {
    const z = zone[cell] as number;
    if (z < 0) continue;
    const [c, r] = [cell % grid, Math.floor(cell / grid)];
    for (let d = 0; d < 4; d++) {
      const across = (d + 3) % 4;
      if (used[cell * 4 + d] || at(c + dx(across), r + dy(across)) === z) continue;
      const ring = trace(at, used, grid, cell, d);
      const id = region[cell] as number;
      const entry = rings.get(id) ?? { exterior: [], holes: [] };
      (area2(ring) > 0 ? entry.exterior : entry.holes).push(ring);
      rings.set(id, entry);
    }
  }
  const out = new Map<number, CellPolygon[]>();
  for (const [id, { exterior, holes }] of rings) {
    // A region is numbered by its first cell in scan order.
    const z = zone[id] as number;
    const list = out.get(z) ?? [];
    // One exterior per region; its holes follow it, as MVT readers attach holes to the exterior before them.
    list.push([...exterior, ...holes]);
    out.set(z, list);
  }
  return out;
}

/** Walks the boundary from cell's side `d`, region on the right, turning right where only a corner joins two cells. */
function trace(
  at: (c: number, r: number) => number,
  used: Uint8Array,
  grid: number,
  start: number,
  startDir: number,
): CellRing {
  const z = at(start % grid, Math.floor(start / grid));
  // Only the corners where the walk turns, kept as it goes (a city's z10 tile traces tens of thousands of rings); the
  // first step's corner is a turn when the walk comes back in another direction.
  const ring: CellRing = [];
  let [cell, d, prev] = [start, startDir, startDir];
  do {
    used[cell * 4 + d] = 1;
    const c = cell % grid;
    const r = (cell - c) / grid;
    if (d !== prev) ring.push(c + sx(d), r + sy(d));
    prev = d;
    const ax = c + dx(d);
    const ay = r + dy(d);
    const left = (d + 3) % 4;
    if (at(ax, ay) !== z) d = (d + 1) % 4;
    else if (at(ax + dx(left), ay + dy(left)) !== z) cell = ay * grid + ax;
    else {
      cell = (ay + dy(left)) * grid + ax + dx(left);
      d = left;
    }
  } while (cell !== start || d !== startDir);
  if (prev !== startDir) {
    const c = start % grid;
    ring.unshift(c + sx(startDir), (start - c) / grid + sy(startDir));
  }
  return ring;
}

/** Twice the ring's signed area: positive clockwise with y down. */
function area2(ring: CellRing): number {
  let a = 0;
  for (let k = 0, n = ring.length; k < n; k += 2) {
    const m = (k + 2) % n;
    a += (ring[k] as number) * (ring[m + 1] as number) - (ring[m] as number) * (ring[k + 1] as number);
  }
  return a;
}

/** Each cell's region: 4-connected cells of one zone share a number. */
function regions(zone: Int32Array, grid: number): Int32Array {
  const region = new Int32Array(zone.length).fill(-1);
  const stack = new Int32Array(zone.length);
  const rows = zone.length / grid;
  for (let seed = 0; seed < zone.length; seed++) {
    if ((zone[seed] as number) < 0 || (region[seed] as number) >= 0) continue;
    let top = 0;
    stack[top++] = seed;
    region[seed] = seed;
    while (top > 0) {
      const cell = stack[--top] as number;
      const [c, r] = [cell % grid, Math.floor(cell / grid)];
      for (let d = 0; d < 4; d++) {
        const [cc, rr] = [c + dx(d), r + dy(d)];
        const n = rr * grid + cc;
        if (cc < 0 || cc >= grid || rr < 0 || rr >= rows || (region[n] as number) >= 0 || zone[n] !== zone[seed])
          continue;
        region[n] = seed;
        stack[top++] = n;
      }
    }
  }
  return region;
}
