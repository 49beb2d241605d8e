// Esri JSON polygons are one flat list of rings: outer rings clockwise, holes anticlockwise. This regroups them into
// GeoJSON polygons by orientation and containment (each hole goes to the smallest outer ring holding it), wound as
// RFC 7946 asks (outer rings anticlockwise, holes clockwise).
import type { AreaGeometry } from "../../src/geo/types.ts";

type Pt = [number, number];

/** Twice the ring's signed area: negative when clockwise (x east, y north). */
export function signedArea2(ring: readonly Pt[]): number {
  let s = 0;
  for (let k = 0; k + 1 < ring.length; k++) {
    const a = ring[k] as Pt;
    const b = ring[k + 1] as Pt;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s;
}

function inside(p: Pt, ring: readonly Pt[]): boolean {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as Pt;
    const [xj, yj] = ring[j] as Pt;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

// Whether the outer ring holds the hole: larger than it, with most of its vertices inside (a vertex shared with the
// outer ring reads either way; an island inside the hole is smaller than the hole).
function holds(outer: { ring: Pt[]; area: number }, hole: readonly Pt[], holeArea: number): boolean {
  if (outer.area <= holeArea) return false;
  let inn = 0;
  for (let k = 0; k + 1 < hole.length; k++) if (inside(hole[k] as Pt, outer.ring)) inn++;
  return 2 * inn >= hole.length - 1;
}

const closed = (r: Pt[]): Pt[] => {
  const a = r[0] as Pt;
  const z = r[r.length - 1] as Pt;
  return a[0] === z[0] && a[1] === z[1] ? r : [...r, a];
};
const wound = (r: Pt[], anticlockwise: boolean): Pt[] => (signedArea2(r) > 0 === anticlockwise ? r : [...r].reverse());

/** The rings as a Polygon or MultiPolygon; null when there is no ring of area. */
export function ringsToGeometry(rings: readonly (readonly Pt[])[]): AreaGeometry | null {
  const outers: { ring: Pt[]; area: number; holes: Pt[][] }[] = [];
  const holes: Pt[][] = [];
  for (const raw of rings) {
    if (raw.length < 3) continue;
    const ring = closed(raw.map((p) => [p[0], p[1]] as Pt));
    const a = signedArea2(ring);
    if (a === 0) continue;
    if (a < 0) outers.push({ ring, area: -a, holes: [] });
    else holes.push(ring);
  }
  for (const h of holes) {
    const area = signedArea2(h);
    let best: (typeof outers)[number] | null = null;
    for (const o of outers) if (holds(o, h, area) && (!best || o.area < best.area)) best = o;
    // An anticlockwise ring no outer ring holds is an outer ring wound the other way (some writers do).
    if (best) best.holes.push(h);
    else outers.push({ ring: h, area: signedArea2(h), holes: [] });
  }
  if (outers.length === 0) return null;
  const polys = outers.map((o) => [wound(o.ring, true), ...o.holes.map((h) => wound(h, false))]);
  return polys.length === 1
    ? { type: "Polygon", coordinates: polys[0] as Pt[][] }
    : { type: "MultiPolygon", coordinates: polys };
}

/** A GeoJSON Polygon or MultiPolygon wound as RFC 7946 asks (GeoJSON answers may come either way). */
export function rewound(g: AreaGeometry): AreaGeometry {
  const fix = (rings: Pt[][]) => rings.map((r, k) => wound(r, k === 0));
  return g.type === "Polygon"
    ? { type: "Polygon", coordinates: fix(g.coordinates as Pt[][]) }
    : { type: "MultiPolygon", coordinates: (g.coordinates as Pt[][][]).map(fix) };
}
