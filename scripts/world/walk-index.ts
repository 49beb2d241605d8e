// What a world thread needs to measure each lot's walk (docs/design.md section 13): the streets as segments on the walk
// plane, every street point's walking distance to the nearest Schedule 11 station and designated town centre (walking.ts
// computes them once), and the centres' land. A lot joins the streets at its nearest street point.
import type { PlaceReach, Reach } from "../../src/scoring/types.ts";
import { nearestT, px, py, quadDistance } from "./walk-plane.ts";

/** A source joined part-way along a segment: a walk on that segment reaches it without passing either end. */
export type DirectSource = { seg: number; t: number; seed: number; label: number };
/** Per street node: walking metres to the nearest source and which source (-1: none reached). */
export type WalkField = { dist: Float64Array; label: Int32Array; direct: DirectSource[] };

export type WalkData = {
  segs: Float64Array; // 4 a segment: ax, ay, bx, by on the walk plane
  ends: Int32Array; // 2 a segment: its end nodes
  station: WalkField;
  centre: WalkField;
  stationNames: string[];
  stationXY: Float64Array;
  centreNames: string[];
  centreQuads: Float64Array; // 8 a quad: the centres' land, on the walk plane
  centreOf: Int32Array; // each quad's centre
};

// No street within this far: the lot is not joined (a reserve far from any street), its reach not measured.
export const JOIN_MAX_M = 2_000;
const CELL_M = 100;
const key = (ix: number, iy: number): number => ix * 1_000_000 + (iy + 500_000);

/** Boxes (segments or quads) by the grid cells they cover, for nearest-first search. */
export class BoxGrid {
  private readonly cells = new Map<number, number[]>();
  add(i: number, x0: number, y0: number, x1: number, y1: number): void {
    for (let ix = Math.floor(x0 / CELL_M); ix <= Math.floor(x1 / CELL_M); ix++) {
      for (let iy = Math.floor(y0 / CELL_M); iy <= Math.floor(y1 / CELL_M); iy++) {
        const k = key(ix, iy);
        const list = this.cells.get(k);
        if (list) list.push(i);
        else this.cells.set(k, [i]);
      }
    }
  }
  /** Calls `visit` for every item in a cell the box covers (an item may come more than once). */
  near(x0: number, y0: number, x1: number, y1: number, visit: (i: number) => void): void {
    for (let ix = Math.floor(x0 / CELL_M); ix <= Math.floor(x1 / CELL_M); ix++) {
      for (let iy = Math.floor(y0 / CELL_M); iy <= Math.floor(y1 / CELL_M); iy++) {
        for (const i of this.cells.get(key(ix, iy)) ?? []) visit(i);
      }
    }
  }
  /** The item nearest (x, y) by `dist`, searched ring by ring out to `maxM`; -1 when none is that near. */
  nearest(x: number, y: number, maxM: number, dist: (i: number) => number): { i: number; d: number } {
    const cx = Math.floor(x / CELL_M);
    const cy = Math.floor(y / CELL_M);
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    const rings = Math.ceil(maxM / CELL_M) + 1;
    for (let r = 0; r <= rings; r++) {
      for (let ix = cx - r; ix <= cx + r; ix++) {
        for (let iy = cy - r; iy <= cy + r; iy++) {
          if (Math.max(Math.abs(ix - cx), Math.abs(iy - cy)) !== r) continue;
          for (const i of this.cells.get(key(ix, iy)) ?? []) {
            const d = dist(i);
            if (d < bestD || (d === bestD && i < best)) {
              bestD = d;
              best = i;
            }
          }
        }
      }
      // Every item within r cells' distance has been seen.
      if (best >= 0 && bestD <= r * CELL_M) break;
    }
    return bestD <= maxM ? { i: best, d: bestD } : { i: -1, d: Number.POSITIVE_INFINITY };
  }
}

/** The segments of `segs` in a grid. */
export function segmentGrid(segs: Float64Array): BoxGrid {
  const g = new BoxGrid();
  for (let i = 0; i < segs.length / 4; i++) {
    const [ax, ay, bx, by] = [segs[4 * i], segs[4 * i + 1], segs[4 * i + 2], segs[4 * i + 3]] as number[];
    g.add(
      i,
      Math.min(ax as number, bx as number),
      Math.min(ay as number, by as number),
      Math.max(ax as number, bx as number),
      Math.max(ay as number, by as number),
    );
  }
  return g;
}

export type StreetPoint = { seg: number; t: number; d: number; len: number };

/** The street point nearest (x, y) within JOIN_MAX_M: its segment, its place along it (0..1) and how far it is. */
export function joinStreet(grid: BoxGrid, segs: Float64Array, x: number, y: number): StreetPoint | null {
  const at = (i: number) => {
    const ax = segs[4 * i] as number;
    const ay = segs[4 * i + 1] as number;
    const bx = segs[4 * i + 2] as number;
    const by = segs[4 * i + 3] as number;
    const t = nearestT(x, y, ax, ay, bx, by);
    return { t, d: Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))), len: Math.hypot(bx - ax, by - ay) };
  };
  const hit = grid.nearest(x, y, JOIN_MAX_M, (i) => at(i).d);
  if (hit.i < 0) return null;
  return { seg: hit.i, ...at(hit.i) };
}

/** Each lot's walk to the nearest station and centre, in a world thread. */
export class WalkIndex {
  private readonly data: WalkData;
  private readonly segGrid: BoxGrid;
  private readonly quadGrid = new BoxGrid();
  private readonly quadsOf: number[][];
  private readonly directOn: Map<number, DirectSource[]>[];

  constructor(data: WalkData) {
    this.data = data;
    this.segGrid = segmentGrid(data.segs);
    const q = data.centreQuads;
    this.quadsOf = data.centreNames.map(() => []);
    for (let i = 0; i < data.centreOf.length; i++) {
      const xs = [q[8 * i], q[8 * i + 2], q[8 * i + 4], q[8 * i + 6]] as number[];
      const ys = [q[8 * i + 1], q[8 * i + 3], q[8 * i + 5], q[8 * i + 7]] as number[];
      this.quadGrid.add(i, Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
      this.quadsOf[data.centreOf[i] as number]?.push(i);
    }
    this.directOn = [data.station, data.centre].map((f) => {
      const m = new Map<number, DirectSource[]>();
      for (const s of f.direct) {
        const list = m.get(s.seg);
        if (list) list.push(s);
        else m.set(s.seg, [s]);
      }
      return m;
    });
  }

  // The walk from street point p to the field's nearest source: by either end of its segment, or along it.
  private walk(f: WalkField, direct: Map<number, DirectSource[]>, p: StreetPoint): { m: number; label: number } {
    const a = this.data.ends[2 * p.seg] as number;
    const b = this.data.ends[2 * p.seg + 1] as number;
    let m = (f.dist[a] as number) + p.t * p.len;
    let label = f.label[a] as number;
    const viaB = (f.dist[b] as number) + (1 - p.t) * p.len;
    if (viaB < m) {
      m = viaB;
      label = f.label[b] as number;
    }
    for (const s of direct.get(p.seg) ?? []) {
      const d = Math.abs(p.t - s.t) * p.len + s.seed;
      if (d < m) {
        m = d;
        label = s.label;
      }
    }
    return { m, label };
  }

  /** The nearest Schedule 11 station and designated town centre by walking from (lon, lat), with their straight lines. */
  reachFrom(lon: number, lat: number): Reach | null {
    const x = px(lon);
    const y = py(lat);
    const q = this.data.centreQuads;
    const inCentre = this.quadGrid.nearest(x, y, 0, (i) => quadDistance(x, y, q, 8 * i));
    const p = joinStreet(this.segGrid, this.data.segs, x, y);
    if (p === null && inCentre.i < 0) return null;
    let station: PlaceReach | null = null;
    let centre: PlaceReach | null = null;
    if (p !== null) {
      const s = this.walk(this.data.station, this.directOn[0] as Map<number, DirectSource[]>, p);
      if (s.label >= 0 && Number.isFinite(s.m)) {
        const sx = this.data.stationXY[2 * s.label] as number;
        const sy = this.data.stationXY[2 * s.label + 1] as number;
        station = {
          name: this.data.stationNames[s.label] as string,
          walkingM: p.d + s.m,
          straightM: Math.hypot(x - sx, y - sy),
        };
      }
      const c = this.walk(this.data.centre, this.directOn[1] as Map<number, DirectSource[]>, p);
      if (c.label >= 0 && Number.isFinite(c.m)) {
        let straight = Number.POSITIVE_INFINITY;
        for (const i of this.quadsOf[c.label] ?? []) straight = Math.min(straight, quadDistance(x, y, q, 8 * i));
        centre = { name: this.data.centreNames[c.label] as string, walkingM: p.d + c.m, straightM: straight };
      }
    }
    // A lot on a centre's land is in it: no walk.
    if (inCentre.i >= 0) {
      centre = {
        name: this.data.centreNames[this.data.centreOf[inCentre.i] as number] as string,
        walkingM: 0,
        straightM: 0,
      };
    }
    return station === null && centre === null ? null : { station, centre };
  }
}
