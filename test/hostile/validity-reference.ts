// Brute-force reference for src/geo/validity.ts: every pair of edges through the exact segment test, and even-odd
// containment of each ring's first vertex, with the messages the check gives. O(n^2): small polygons only.
import { segmentsMeet } from "../../src/geo/segments.ts";
import type { Position } from "../../src/geo/types.ts";

export interface RefRing {
  path: number[];
  label: string;
  part: number;
  hole: boolean;
  pts: [number, number][];
  /** Input position of each kept vertex (consecutive repeats dropped, as the check does). */
  at: number[];
}

export interface RefProblem {
  path: number[];
  message: string;
}

export function refRings(type: "Polygon" | "MultiPolygon", coordinates: Position[][] | Position[][][]): RefRing[] {
  const multi = type === "MultiPolygon";
  const polygons = (multi ? coordinates : [coordinates]) as Position[][][];
  const out: RefRing[] = [];
  polygons.forEach((poly, p) => {
    poly.forEach((ring, r) => {
      const of = multi ? ` of polygon ${p + 1}` : "";
      const pts: [number, number][] = [];
      const at: number[] = [];
      for (let i = 0; i < ring.length - 1; i++) {
        const [x, y] = ring[i] as [number, number];
        const last = pts[pts.length - 1];
        if (last && last[0] === x && last[1] === y) continue;
        pts.push([x, y]);
        at.push(i);
      }
      while (pts.length > 1 && String(pts[pts.length - 1]) === String(pts[0])) {
        pts.pop();
        at.pop();
      }
      const label = r === 0 ? `The outer ring${of}` : `Hole ${r}${of}`;
      out.push({ path: multi ? [p, r] : [r], label, part: p, hole: r > 0, pts, at });
    });
  });
  return out;
}

const near = (x: number, y: number) => `[${Number(x.toFixed(6))}, ${Number(y.toFixed(6))}]`;
const lower = (l: string) => l.charAt(0).toLowerCase() + l.slice(1);

/** Every problem any pair of meeting edges would be reported as (neighbours at their shared vertex excepted). */
export function meetingProblems(rings: RefRing[]): RefProblem[] {
  const out: RefProblem[] = [];
  const edge = (r: RefRing, i: number) =>
    [...(r.pts[i] as [number, number]), ...(r.pts[(i + 1) % r.pts.length] as [number, number])] as const;
  rings.forEach((a, ka) => {
    rings.forEach((b, kb) => {
      if (kb < ka) return;
      for (let i = 0; i < a.pts.length; i++) {
        for (let j = ka === kb ? i + 1 : 0; j < b.pts.length; j++) {
          if (a === b && (j === i + 1 || (i === 0 && j === a.pts.length - 1))) continue;
          const m = segmentsMeet(...edge(a, i), ...edge(b, j));
          if (!m) continue;
          const where = `near ${near(m[0], m[1])}`;
          if (a === b)
            out.push({
              path: a.path,
              message: `${a.label} crosses or touches itself ${where} (edges from positions ${a.at[i]} and ${a.at[j]}): a parcel boundary must not self-intersect`,
            });
          else if (a.part !== b.part)
            out.push({
              path: [b.part],
              message: `Polygons ${a.part + 1} and ${b.part + 1} overlap or touch ${where}: the parts of a MultiPolygon must be apart`,
            });
          else
            out.push({
              path: b.path,
              message: `${b.label} crosses or touches ${lower(a.label)} ${where}: a hole must lie inside the outer ring without meeting it or another hole`,
            });
        }
      }
    });
  });
  return out;
}

function inside(r: RefRing, [px, py]: [number, number]): boolean {
  let odd = false;
  for (let i = 0, j = r.pts.length - 1; i < r.pts.length; j = i++) {
    const [ax, ay] = r.pts[j] as [number, number];
    const [bx, by] = r.pts[i] as [number, number];
    if (ay > py === by > py) continue;
    if (px < ax + ((py - ay) * (bx - ax)) / (by - ay)) odd = !odd;
  }
  return odd;
}

/** The first containment problem by ring order, for rings that do not meet (integer coordinates keep the test exact enough). */
export function containmentReference(rings: RefRing[]): RefProblem | null {
  for (const r of rings) {
    const around = rings.filter((o) => o !== r && inside(o, r.pts[0] as [number, number]));
    if (r.hole) {
      if (!around.some((o) => !o.hole && o.part === r.part))
        return { path: r.path, message: `${r.label} lies outside the outer ring: a hole must be inside the parcel` };
      const outer = around.find((o) => o.hole && o.part === r.part);
      if (outer)
        return { path: r.path, message: `${r.label} lies inside ${outer.label.toLowerCase()}: holes must not overlap` };
      continue;
    }
    for (const o of around) {
      if (o.hole || o.part === r.part) continue;
      if (!around.some((h) => h.hole && h.part === o.part))
        return {
          path: [r.part],
          message: `Polygon ${r.part + 1} lies inside polygon ${o.part + 1}: the parts of a MultiPolygon must not overlap`,
        };
    }
  }
  return null;
}
