// A suburb's street frame on the 1e-7 degree integer grid the v2 format stores: whole metres along (u) and
// across (v) the streets map to integer vertices, so every lot, block and overlay edge on one street line is
// exactly collinear and the overlay kernels see no slivers between neighbours.
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";

const RAD = Math.PI / 180;
// Metres per degree of latitude and of longitude at the equator (WGS84 mean, close enough for a street grid).
const M_PER_DEG_LAT = 110_950;
const M_PER_DEG_LON = 111_320;

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
};

/** The frame at (lon, lat) with streets at `angleDeg` from east. */
export function makeFrame(lon: number, lat: number, angleDeg: number): Frame {
  const mx = (M_PER_DEG_LON * Math.cos(lat * RAD)) / UNITS_PER_DEGREE;
  const my = M_PER_DEG_LAT / UNITS_PER_DEGREE;
  const c = Math.cos(angleDeg * RAD);
  const s = Math.sin(angleDeg * RAD);
  const ux = Math.round(c / mx);
  const uy = Math.round(s / my);
  const vx = Math.round(-s / mx);
  const vy = Math.round(c / my);
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
  };
}

/** Integer x (1e-7 degree) of the point u metres along, v across. */
export function qx(f: Frame, u: number, v: number): number {
  return f.ox + u * f.ux + v * f.vx;
}
export function qy(f: Frame, u: number, v: number): number {
  return f.oy + u * f.uy + v * f.vy;
}

/** Frame coordinates (metres, fractional) of a point in degrees. */
export function toFrame(f: Frame, lon: number, lat: number): [number, number] {
  const dx = lon * UNITS_PER_DEGREE - f.ox;
  const dy = lat * UNITS_PER_DEGREE - f.oy;
  return [(dx * f.vy - dy * f.vx) / f.det, (f.ux * dy - f.uy * dx) / f.det];
}
