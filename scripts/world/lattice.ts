// A suburb's street frame on the 1e-7 degree integer grid the v2 format stores: whole metres along (u) and
// across (v) the streets map to integer vertices, so every lot, block and overlay edge on one street line is
// exactly collinear and the overlay kernels see no slivers between neighbours.
//
// A frame may bend (packs/README.md, "Streets curve"): a smooth seeded displacement of the plane, followed cell by
// cell of the block grid. Each column (u from k * pitch to (k + 1) * pitch, a block and the cross street before it)
// of each band (a row of blocks and the road before it) is an affine map with whole-unit steps per metre, so a
// block's lots and overlays stay exactly collinear; at each column's edge the lines turn to follow the displacement
// (a road line bends at its crossings) and each band keeps its own place (a cross street bends between rows).
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";

const RAD = Math.PI / 180;
// Metres per degree of latitude and of longitude at the equator (WGS84 mean, close enough for a street grid).
const M_PER_DEG_LAT = 110_950;
const M_PER_DEG_LON = 111_320;

/** One transverse wave of the displacement (metres): `amp` * (nu, nv) * sin(ku * u + kv * v + phase). */
export type Wave = { ku: number; kv: number; nu: number; nv: number; amp: number; phase: number };

// A band's reference line through every column: its point at each column's start and its integer step per metre.
type Line = { x: number[]; y: number[]; sx: number[]; sy: number[] };

// `bands`: where each band of v starts (a row of blocks and the road before it), sorted; set once the rows are laid.
type Bend = {
  pitch: number;
  waves: readonly Wave[];
  bands: number[];
  lines: Map<number, { pos: Line; neg: Line }>;
  across: Map<number, [number, number]>;
};

export type Frame = {
  // Origin and the integer steps of one metre along u and v, in 1e-7 degree units.
  ox: number;
  oy: number;
  ux: number;
  uy: number;
  vx: number;
  vy: number;
  // Metres per unit in x and y at the origin, for distances.
  mx: number;
  my: number;
  det: number;
  // The bend, the column width it is followed on and the bands of v (null: a straight grid).
  bend: Bend | null;
};

/** The frame at (lon, lat) with streets at `angleDeg` from east, bent by `waves` over columns `pitch` metres wide. */
export function makeFrame(lon: number, lat: number, angleDeg: number, pitch = 0, waves: readonly Wave[] = []): Frame {
  const mx = (M_PER_DEG_LON * Math.cos(lat * RAD)) / UNITS_PER_DEGREE;
  const my = M_PER_DEG_LAT / UNITS_PER_DEGREE;
  const c = Math.cos(angleDeg * RAD);
  const s = Math.sin(angleDeg * RAD);
  const ux = Math.round(c / mx);
  const uy = Math.round(s / my);
  const vx = Math.round(-s / mx);
  const vy = Math.round(c / my);
  const bent = pitch > 0 && waves.some((w) => w.amp > 0);
  return {
    ox: Math.round(lon * UNITS_PER_DEGREE),
    oy: Math.round(lat * UNITS_PER_DEGREE),
    ux,
    uy,
    vx,
    vy,
    mx,
    my,
    det: ux * vy - uy * vx,
    bend: bent ? { pitch, waves, bands: [0], lines: new Map(), across: new Map() } : null,
  };
}

/** The displacement (metres along u and v) the frame's bend moves the point (u, v) by. */
export function displacement(f: Frame, u: number, v: number): [number, number] {
  let du = 0;
  let dv = 0;
  for (const w of f.bend?.waves ?? []) {
    const a = w.amp * Math.sin(w.ku * u + w.kv * v + w.phase);
    du += a * w.nu;
    dv += a * w.nv;
  }
  return [du, dv];
}

// The smooth bent point in units (not rounded): the target each column's line steps towards.
function smooth(f: Frame, u: number, v: number): [number, number] {
  const [du, dv] = displacement(f, u, v);
  const a = u + du;
  const b = v + dv;
  return [f.ox + a * f.ux + b * f.vx, f.oy + a * f.uy + b * f.vy];
}

/**
 * Sets where the frame's bands of v start (each row of blocks with the road before it, sorted): a band runs from just
 * past its start to the next band's start, so a block's back edge is in its own band. Before any point is placed.
 */
export function setBands(f: Frame, starts: readonly number[]): void {
  if (!f.bend) return;
  if (f.bend.lines.size > 0) throw new Error("a frame's bands are set before any point is placed in it");
  f.bend.bands = starts.length > 0 ? [...starts] : [0];
}

// The band holding v: the last whose start lies below v (the first for v at or below every start).
function bandOf(bands: readonly number[], v: number): number {
  let lo = 0;
  let hi = bands.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((bands[mid] as number) < v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Band b's reference line (its middle) in column k: its start and whole-unit step per metre. Each step lands nearest
// the smooth point at the column's far edge (k >= 0 stepping forward from column 0, k < 0 back from it), so the line
// never strays from the bend by more than half a unit per metre of one column.
function lineAt(f: Frame, bend: Bend, b: number, k: number): [number, number, number, number] {
  const v = refOf(bend, b);
  let pair = bend.lines.get(b);
  if (!pair) {
    const [x0, y0] = smooth(f, 0, v);
    const start = (): Line => ({ x: [Math.round(x0)], y: [Math.round(y0)], sx: [], sy: [] });
    pair = { pos: start(), neg: start() };
    bend.lines.set(b, pair);
  }
  const p = bend.pitch;
  const forward = k >= 0;
  const l = forward ? pair.pos : pair.neg;
  // Entry i is column i forward, or column -(i + 1) backward (its start then i + 1 entries back from column 0).
  const n = forward ? k : -k - 1;
  const dir = forward ? 1 : -1;
  while (l.sx.length <= n) {
    const i = l.sx.length;
    const [tx, ty] = smooth(f, dir * (i + 1) * p, v);
    const sx = Math.round((dir * (tx - (l.x[i] as number))) / p);
    const sy = Math.round((dir * (ty - (l.y[i] as number))) / p);
    l.sx.push(sx);
    l.sy.push(sy);
    l.x.push((l.x[i] as number) + dir * p * sx);
    l.y.push((l.y[i] as number) + dir * p * sy);
  }
  const at0 = forward ? n : n + 1;
  return [l.x[at0] as number, l.y[at0] as number, l.sx[n] as number, l.sy[n] as number];
}

// Band b's reference v: its middle (the last band's a row's depth past its start).
function refOf(bend: Bend, b: number): number {
  const start = bend.bands[b] as number;
  const next = bend.bands[b + 1];
  return next === undefined ? start + 30 : Math.round((start + next) / 2);
}

/** The point u metres along, v across, in 1e-7 degree units (integers at whole metres). */
export function at(f: Frame, u: number, v: number): [number, number] {
  const bend = f.bend;
  if (!bend) return [f.ox + u * f.ux + v * f.vx, f.oy + u * f.uy + v * f.vy];
  const k = Math.floor(u / bend.pitch);
  const b = bandOf(bend.bands, v);
  const [x, y, sx, sy] = lineAt(f, bend, b, k);
  const [vx, vy] = acrossOf(f, bend, b);
  const d = u - k * bend.pitch;
  const e = v - refOf(bend, b);
  return [x + e * vx + d * sx, y + e * vy + d * sy];
}

// Band b's step across per metre of v (whole units): the bent plane's run across the band at column 0. With the
// reference line's steps along it, each cell of the grid is an affine map with whole-unit steps, so every line of
// constant u or v in it is straight and its whole-metre points exactly collinear (no T-junction leaves a sliver).
function acrossOf(f: Frame, bend: Bend, b: number): [number, number] {
  let s = bend.across.get(b);
  if (!s) {
    const start = bend.bands[b] as number;
    const end = 2 * refOf(bend, b) - start;
    const [ax, ay] = smooth(f, 0, start);
    const [bx, by] = smooth(f, 0, end);
    s = [Math.round((bx - ax) / (end - start)), Math.round((by - ay) / (end - start))];
    bend.across.set(b, s);
  }
  return s;
}

/** Integer x (1e-7 degree) of the point u metres along, v across. */
export function qx(f: Frame, u: number, v: number): number {
  return at(f, u, v)[0];
}
export function qy(f: Frame, u: number, v: number): number {
  return at(f, u, v)[1];
}

/** The whole-column edges (u) strictly between a and b, where a line of constant v turns. */
export function columnEdges(f: Frame, a: number, b: number): number[] {
  const p = f.bend?.pitch ?? 0;
  if (p <= 0) return [];
  const out: number[] = [];
  for (let k = Math.floor(Math.min(a, b) / p) + 1; k * p < Math.max(a, b); k++) out.push(k * p);
  return a <= b ? out : out.reverse();
}

/** Frame coordinates (metres, fractional) of a point in degrees: exact for a straight frame, within a metre bent. */
export function toFrame(f: Frame, lon: number, lat: number): [number, number] {
  const dx = lon * UNITS_PER_DEGREE - f.ox;
  const dy = lat * UNITS_PER_DEGREE - f.oy;
  const a = (dx * f.vy - dy * f.vx) / f.det;
  const b = (f.ux * dy - f.uy * dx) / f.det;
  if (!f.bend) return [a, b];
  // The bend moves no point far and turns no line much: a few fixed-point steps undo it.
  let u = a;
  let v = b;
  for (let i = 0; i < 8; i++) {
    const [du, dv] = displacement(f, u, v);
    u = a - du;
    v = b - dv;
  }
  return [u, v];
}
