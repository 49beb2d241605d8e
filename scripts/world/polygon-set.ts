// A set of polygons (a suburb, the water, the parks) indexed for the three questions the generator asks of
// every lot: does any boundary cross this quad, is this point inside, how far is the nearest boundary.
import Flatbush from "flatbush";
import { columnsFromGeometries } from "../../src/geo/columns.ts";
import { pointInFeature } from "../../src/geo/pip.ts";
import type { AreaGeometry, Columns } from "../../src/geo/types.ts";

const RAD = Math.PI / 180;
const M_PER_DEG = 111_195;
// About 200 m: a lot's quad meets one to four cells.
const CELL_DEG = 0.002;

export class PolygonSet {
  private readonly cols: Columns;
  private readonly boxes: Flatbush | null;
  private readonly seg: Float64Array;
  private readonly x0: number;
  private readonly y0: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly cellStart: Uint32Array;
  private readonly cellSegs: Uint32Array;
  // Per cell without boundaries: -1 not yet known, 0 outside every polygon, 1 inside one.
  private readonly status: Int8Array;

  constructor(geoms: readonly AreaGeometry[]) {
    this.cols = geoms.length > 0 ? columnsFromGeometries(geoms) : emptyColumns();
    const c = this.cols;
    const n = c.featureOffsets.length - 1;
    const segs: number[] = [];
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    this.boxes = n > 0 ? new Flatbush(n) : null;
    for (let i = 0; i < n; i++) {
      let bx0 = Infinity;
      let by0 = Infinity;
      let bx1 = -Infinity;
      let by1 = -Infinity;
      const r0 = c.polyOffsets[c.featureOffsets[i] as number] as number;
      const r1 = c.polyOffsets[c.featureOffsets[i + 1] as number] as number;
      for (let r = r0; r < r1; r++) {
        const v0 = c.ringOffsets[r] as number;
        const v1 = c.ringOffsets[r + 1] as number;
        for (let v = v0; v < v1; v++) {
          const w = v + 1 < v1 ? v + 1 : v0;
          const ax = c.coords[2 * v] as number;
          const ay = c.coords[2 * v + 1] as number;
          segs.push(ax, ay, c.coords[2 * w] as number, c.coords[2 * w + 1] as number);
          if (ax < bx0) bx0 = ax;
          if (ax > bx1) bx1 = ax;
          if (ay < by0) by0 = ay;
          if (ay > by1) by1 = ay;
        }
      }
      this.boxes?.add(bx0, by0, bx1, by1);
      minX = Math.min(minX, bx0);
      minY = Math.min(minY, by0);
      maxX = Math.max(maxX, bx1);
      maxY = Math.max(maxY, by1);
    }
    this.boxes?.finish();
    this.seg = Float64Array.from(segs);
    if (!Number.isFinite(minX)) {
      minX = 0;
      minY = 0;
      maxX = 0;
      maxY = 0;
    }
    this.x0 = minX - CELL_DEG;
    this.y0 = minY - CELL_DEG;
    this.nx = Math.max(1, Math.ceil((maxX - this.x0) / CELL_DEG) + 2);
    this.ny = Math.max(1, Math.ceil((maxY - this.y0) / CELL_DEG) + 2);
    const cells = this.nx * this.ny;
    const counts = new Uint32Array(cells + 1);
    const ns = this.seg.length / 4;
    const span = (s: number, f: (cell: number) => void) => {
      const [cx0, cy0, cx1, cy1] = this.segCells(s);
      for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) f(cy * this.nx + cx);
    };
    for (let s = 0; s < ns; s++)
      span(s, (cell) => {
        counts[cell + 1] = (counts[cell + 1] as number) + 1;
      });
    for (let i = 0; i < cells; i++) counts[i + 1] = (counts[i + 1] as number) + (counts[i] as number);
    this.cellStart = counts;
    this.cellSegs = new Uint32Array(counts[cells] as number);
    const fill = counts.slice(0, cells);
    for (let s = 0; s < ns; s++)
      span(s, (cell) => {
        const at = fill[cell] as number;
        this.cellSegs[at] = s;
        fill[cell] = at + 1;
      });
    this.status = new Int8Array(cells).fill(-1);
  }

  private cellX(x: number): number {
    return Math.max(0, Math.min(this.nx - 1, Math.floor((x - this.x0) / CELL_DEG)));
  }
  private cellY(y: number): number {
    return Math.max(0, Math.min(this.ny - 1, Math.floor((y - this.y0) / CELL_DEG)));
  }

  private segCells(s: number): [number, number, number, number] {
    const a = this.seg;
    const x1 = a[4 * s] as number;
    const y1 = a[4 * s + 1] as number;
    const x2 = a[4 * s + 2] as number;
    const y2 = a[4 * s + 3] as number;
    return [
      this.cellX(Math.min(x1, x2)),
      this.cellY(Math.min(y1, y2)),
      this.cellX(Math.max(x1, x2)),
      this.cellY(Math.max(y1, y2)),
    ];
  }

  private exactInside(x: number, y: number): boolean {
    if (!this.boxes) return false;
    for (const i of this.boxes.search(x, y, x, y)) if (pointInFeature(this.cols, i, x, y)) return true;
    return false;
  }

  /** Whether the point is inside any polygon (holes excluded). */
  contains(x: number, y: number): boolean {
    const cell = this.cellY(y) * this.nx + this.cellX(x);
    if ((this.cellStart[cell + 1] as number) > (this.cellStart[cell] as number)) return this.exactInside(x, y);
    let s = this.status[cell] as number;
    if (s < 0) {
      // No boundary in the cell: one test at its centre answers for all of it.
      const cx = this.x0 + ((cell % this.nx) + 0.5) * CELL_DEG;
      const cy = this.y0 + (Math.floor(cell / this.nx) + 0.5) * CELL_DEG;
      s = this.exactInside(cx, cy) ? 1 : 0;
      this.status[cell] = s;
    }
    return s === 1;
  }

  /** Whether a boundary meets the convex quad (xs, ys: its four corners in order, degrees). */
  crosses(xs: readonly number[], ys: readonly number[]): boolean {
    const bx0 = Math.min(xs[0] as number, xs[1] as number, xs[2] as number, xs[3] as number);
    const bx1 = Math.max(xs[0] as number, xs[1] as number, xs[2] as number, xs[3] as number);
    const by0 = Math.min(ys[0] as number, ys[1] as number, ys[2] as number, ys[3] as number);
    const by1 = Math.max(ys[0] as number, ys[1] as number, ys[2] as number, ys[3] as number);
    const cx0 = this.cellX(bx0);
    const cx1 = this.cellX(bx1);
    const cy0 = this.cellY(by0);
    const cy1 = this.cellY(by1);
    const a = this.seg;
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const cell = cy * this.nx + cx;
        for (let k = this.cellStart[cell] as number; k < (this.cellStart[cell + 1] as number); k++) {
          const s = this.cellSegs[k] as number;
          const x1 = a[4 * s] as number;
          const y1 = a[4 * s + 1] as number;
          const x2 = a[4 * s + 2] as number;
          const y2 = a[4 * s + 3] as number;
          if (Math.max(x1, x2) < bx0 || Math.min(x1, x2) > bx1 || Math.max(y1, y2) < by0 || Math.min(y1, y2) > by1)
            continue;
          if (segmentMeetsQuad(x1, y1, x2, y2, xs, ys)) return true;
        }
      }
    }
    return false;
  }

  /** Metres from the point to the nearest boundary, or Infinity when none is within maxM. */
  distanceM(x: number, y: number, maxM: number): number {
    const kx = Math.cos(y * RAD) * M_PER_DEG;
    const ky = M_PER_DEG;
    const cx0 = this.cellX(x - maxM / kx);
    const cx1 = this.cellX(x + maxM / kx);
    const cy0 = this.cellY(y - maxM / ky);
    const cy1 = this.cellY(y + maxM / ky);
    const a = this.seg;
    let best = Infinity;
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const cell = cy * this.nx + cx;
        for (let k = this.cellStart[cell] as number; k < (this.cellStart[cell + 1] as number); k++) {
          const s = this.cellSegs[k] as number;
          const ax = ((a[4 * s] as number) - x) * kx;
          const ay = ((a[4 * s + 1] as number) - y) * ky;
          const dx = ((a[4 * s + 2] as number) - x) * kx - ax;
          const dy = ((a[4 * s + 3] as number) - y) * ky - ay;
          const len2 = dx * dx + dy * dy;
          const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
          const d = Math.hypot(ax + t * dx, ay + t * dy);
          if (d < best) best = d;
        }
      }
    }
    return best <= maxM ? best : Infinity;
  }
}

function emptyColumns(): Columns {
  return {
    coords: new Float64Array(0),
    ringOffsets: Uint32Array.of(0),
    polyOffsets: Uint32Array.of(0),
    featureOffsets: Uint32Array.of(0),
  };
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

// Segments that touch count as meeting: a lot may not even touch a boundary it must stay inside.
function segmentsMeet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay);
  const d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy);
  const d4 = orient(ax, ay, bx, by, dx, dy);
  return ((d1 <= 0 && d2 >= 0) || (d1 >= 0 && d2 <= 0)) && ((d3 <= 0 && d4 >= 0) || (d3 >= 0 && d4 <= 0));
}

function insideQuad(x: number, y: number, xs: readonly number[], ys: readonly number[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    const o = orient(xs[i] as number, ys[i] as number, xs[j] as number, ys[j] as number, x, y);
    if (o === 0) continue;
    const s = o > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

function segmentMeetsQuad(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  xs: readonly number[],
  ys: readonly number[],
): boolean {
  if (insideQuad(x1, y1, xs, ys) || insideQuad(x2, y2, xs, ys)) return true;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    if (segmentsMeet(x1, y1, x2, y2, xs[i] as number, ys[i] as number, xs[j] as number, ys[j] as number)) return true;
  }
  return false;
}
