// A lot's frontage where no streets are known (issue 50, item 4: an uploaded or imported cadastre): the cadastre holds
// lots, not roads, so a street is the gap between two rows of lots. A stretch of boundary faces a road reserve when,
// looking straight out from it, the first other lot lies a reserve's width away: not touching (a neighbour), not a
// lane's width, not open country (nothing, or nothing known, within reach). Coordinates are metres in a local plane.

type XY = readonly [number, number];

/** A gap narrower than this is a lane or a survey sliver; from this wide it is a road reserve (a 6 m laneway up). */
export const RESERVE_MIN_M = 6;
/** Wider than this (a highway's 40 m reserve and some) is not read as a street: a park, a creek or the data's edge. */
export const RESERVE_MAX_M = 45;
// Closer than this, what lies beyond the boundary is the neighbour sharing it (surveys and quantising disagree a little).
const TOUCH_M = 1;
// The boundary is looked out from every SAMPLE_M or so.
const SAMPLE_M = 1;
// Consecutive edges turning less than this are one stretch (a curved frontage at a cul-de-sac's head is many edges).
const SAME_STRETCH_COS = Math.cos((30 * Math.PI) / 180);
/** A stretch shorter than this joining two others is a corner's splay, not a frontage (a battle-axe handle stands alone). */
export const SPLAY_MAX_M = 6;
// A street touched for less than this is not a frontage (as geo/street-frontage.ts).
const MIN_FRONTAGE_M = 1;

function signedArea(ring: readonly XY[]): number {
  let a = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] as XY;
    const q = ring[(i + 1) % ring.length] as XY;
    a += p[0] * q[1] - q[0] * p[1];
  }
  return a / 2;
}

/** Distance along the ray from (ox, oy) in direction (ux, uy) to the nearest of `edges`' crossings, or Infinity. */
function firstHit(ox: number, oy: number, ux: number, uy: number, edges: Float64Array): number {
  let best = Number.POSITIVE_INFINITY;
  for (let j = 0; j < edges.length; j += 4) {
    const ax = edges[j] as number;
    const ay = edges[j + 1] as number;
    const ex = (edges[j + 2] as number) - ax;
    const ey = (edges[j + 3] as number) - ay;
    const den = ux * ey - uy * ex;
    if (den === 0) continue;
    const wx = ax - ox;
    const wy = ay - oy;
    const t = (wx * ey - wy * ex) / den;
    const s = (wx * uy - wy * ux) / den;
    if (s < 0 || s > 1 || t < -TOUCH_M || t >= best) continue;
    best = t;
  }
  return best;
}

function edgesOf(rings: readonly (readonly XY[])[]): Float64Array {
  const out: number[] = [];
  for (const ring of rings)
    for (let i = 0; i < ring.length; i++) {
      const p = ring[i] as XY;
      const q = ring[(i + 1) % ring.length] as XY;
      if (p[0] !== q[0] || p[1] !== q[1]) out.push(p[0], p[1], q[0], q[1]);
    }
  return Float64Array.from(out);
}

type Stretch = { metres: number; first: number; last: number };

/**
 * The lot's boundary stretches on road reserves, in metres, given the outer rings of the lots around it (within
 * RESERVE_MAX_M; the lot itself excluded). A stretch is consecutive edges facing a reserve, turning less than 30°.
 */
export function reserveStretchesM(given: readonly XY[], others: readonly (readonly XY[])[]): number[] {
  // Without repeated vertices (a GeoJSON ring's closing one among them): every edge has a length and a direction.
  const ring = given.filter((p, i) => {
    const q = given[(i + 1) % given.length] as XY;
    return p[0] !== q[0] || p[1] !== q[1];
  });
  const n = ring.length;
  if (n < 3 || others.length === 0) return [];
  const edges = edgesOf(others);
  // Outward is to the right of a counter-clockwise ring's edges.
  const sign = signedArea(ring) > 0 ? 1 : -1;
  const onReserve = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = ring[i] as XY;
    const q = ring[(i + 1) % n] as XY;
    const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (len === 0) continue;
    const dx = (q[0] - p[0]) / len;
    const dy = (q[1] - p[1]) / len;
    const ux = dy * sign;
    const uy = -dx * sign;
    const k = Math.max(1, Math.round(len / SAMPLE_M));
    let facing = 0;
    for (let s = 0; s < k; s++) {
      const at = ((s + 0.5) / k) * len;
      const t = firstHit(p[0] + dx * at, p[1] + dy * at, ux, uy, edges);
      if (t >= RESERVE_MIN_M && t <= RESERVE_MAX_M) facing++;
    }
    onReserve[i] = (facing / k) * len;
  }
  // Stretches of consecutive facing edges, starting after a break so that one wrapping the ring's start stays whole.
  const cosTurn = (i: number) => {
    const a = ring[(i + n - 1) % n] as XY;
    const b = ring[i] as XY;
    const c = ring[(i + 1) % n] as XY;
    const l1 = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const l2 = Math.hypot(c[0] - b[0], c[1] - b[1]);
    return l1 === 0 || l2 === 0 ? 1 : ((b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1])) / (l1 * l2);
  };
  const breaksBefore = (i: number) =>
    (onReserve[i] as number) === 0 || (onReserve[(i + n - 1) % n] as number) === 0 || cosTurn(i) < SAME_STRETCH_COS;
  let start = 0;
  while (start < n && !breaksBefore(start)) start++;
  if (start === n) start = 0;
  const stretches: Stretch[] = [];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    const m = onReserve[i] as number;
    if (m === 0) continue;
    const last = stretches[stretches.length - 1];
    if (last && !breaksBefore(i) && last.last === (i + n - 1) % n) {
      last.metres += m;
      last.last = i;
    } else stretches.push({ metres: m, first: i, last: i });
  }
  // A short stretch touching a stretch at both ends is the splay cut across a corner between two streets.
  const touches = (a: Stretch, b: Stretch) => a.last === (b.first + n - 1) % n || b.last === (a.first + n - 1) % n;
  return stretches
    .filter((s) => !(s.metres < SPLAY_MAX_M && stretches.filter((o) => o !== s && touches(s, o)).length >= 2))
    .map((s) => s.metres)
    .filter((m) => m >= MIN_FRONTAGE_M);
}

/** The lot's frontage on a road reserve: its shortest stretch on one (a corner lot's front), or null where it faces none. */
export function reserveFrontageM(ring: readonly XY[], others: readonly (readonly XY[])[]): number | null {
  const stretches = reserveStretchesM(ring, others);
  return stretches.length === 0 ? null : Math.min(...stretches);
}
