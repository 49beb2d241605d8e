// Polygon validity on a 10,000-vertex ring: the sweep-line check against brute-force all-pairs edge tests.
import { segmentsMeet, validityProblem } from "../../src/geo/validity.ts";
import type { Position } from "../../src/geo/types.ts";
import { type BenchResult, median } from "./result.ts";

function circle(n: number): Position[] {
  const pts: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    pts.push([151.2 + 0.01 * Math.cos(a), -33.87 + 0.01 * Math.sin(a)]);
  }
  return [...pts, pts[0] as Position];
}

// The O(n^2) baseline: every pair of non-neighbouring edges through the same exact segment test.
function bruteForce(ring: Position[]): boolean {
  const n = ring.length - 1;
  const at = (i: number) => ring[i % n] as [number, number];
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (segmentsMeet(...at(i), ...at(i + 1), ...at(j), ...at(j + 1))) return false;
    }
  }
  return true;
}

function time(f: () => unknown, runs: number): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

export async function runValidityBenches(): Promise<BenchResult[]> {
  const ring = circle(9_999);
  if (validityProblem("Polygon", [ring]) !== null || !bruteForce(ring)) throw new Error("the circle should be valid");
  const value = time(() => validityProblem("Polygon", [ring]), 9);
  const baseline = time(() => bruteForce(ring), 3);
  return [
    { name: "validity of a 10,000-vertex ring (sweep line)", value, unit: "ms", baseline, ratio: baseline / value },
  ];
}
