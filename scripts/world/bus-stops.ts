// A suburb's bus stops: on the streets buses run along (a road line or cross street about every ROUTE_SPACING_M, from a
// seeded start), about STOP_SPACING_M apart along each run of built street with a little seeded jitter, kept off the
// crossings and set at the kerb, alternately on either side, as a person waiting for a bus finds them.
import { unit } from "./hash-random.ts";
import { mergeIntervals } from "../../src/geo/intervals.ts";
import { onStreet, type Street, type StreetGrid } from "./street-lines.ts";

export const STOP_SPACING_M = 400;
export const ROUTE_SPACING_M = 800;
// How far a stop may move from its even spacing either way, and the least room at either end of a run.
const JITTER_M = 30;
const END_MARGIN_M = 50;
// Runs shorter than this (a lone lot's frontage) get no stop.
const MIN_RUN_M = 60;
// A stop keeps this clear of a crossing's edge; it stands this far in from the kerb line (the lots' edge).
const CLEAR_OF_CROSSING_M = 6;
const KERB_M = 2;

/**
 * A stop in the plan's frame (metres), the street it is on and the street it is near; `dir`, `line`, `run` and
 * `along` say which run of which road line or cross street it stands on, and where along it.
 */
export type BusStop = {
  u: number;
  v: number;
  street: string;
  near: string | null;
  dir: Street["dir"];
  line: number;
  run: number;
  along: number;
};

// Whether the line is a route: the first line past each multiple of the spacing (from a seeded phase).
function routeLines(lines: readonly number[], at: (line: number) => number, phase: number): Set<number> {
  const out = new Set<number>();
  let last = Number.NaN;
  for (const line of [...lines].sort((a, b) => a - b)) {
    const band = Math.floor((at(line) + phase) / ROUTE_SPACING_M);
    if (band !== last) out.add(line);
    last = band;
  }
  return out;
}

// The nearest of the sorted positions to x, or null when there are none.
function nearest(sorted: readonly number[], x: number): number | null {
  let best: number | null = null;
  for (const p of sorted) if (best === null || Math.abs(p - x) < Math.abs(best - x)) best = p;
  return best;
}

/** The plan's bus stops along the grid's built streets. */
export function busStops(grid: StreetGrid): BusStop[] {
  const { plan, road } = grid;
  const seed = plan.seed;
  const byLine = new Map<string, Street[]>();
  for (const s of grid.streets) {
    const key = `${s.dir}:${s.line}`;
    const list = byLine.get(key);
    if (list) list.push(s);
    else byLine.set(key, [s]);
  }
  const lines = (dir: Street["dir"]) => grid.streets.filter((s) => s.dir === dir).map((s) => s.line);
  const routes = {
    row: routeLines(lines("row"), grid.rowAt, unit(seed, 0xb05) * ROUTE_SPACING_M),
    cross: routeLines(lines("cross"), grid.crossAt, unit(seed, 0xb06) * ROUTE_SPACING_M),
  };
  // Crossings along each kind of line: a road line is crossed by cross streets, a cross street by road lines.
  const crossings = {
    row: [...new Set(lines("cross"))].map(grid.crossAt).sort((a, b) => a - b),
    cross: [...new Set(lines("row"))].map(grid.rowAt).sort((a, b) => a - b),
  };
  const clear = road / 2 + CLEAR_OF_CROSSING_M;
  const out: BusStop[] = [];
  const keys = [...byLine.keys()].sort();
  for (const key of keys) {
    const stretches = byLine.get(key) as Street[];
    const first = stretches[0] as Street;
    if (!routes[first.dir].has(first.line)) continue;
    const across = crossings[first.dir];
    const runs = mergeIntervals(stretches.flatMap((s) => s.parts));
    runs.forEach(([a, b], r) => {
      const length = b - a;
      if (length < MIN_RUN_M) return;
      const n = 1 + Math.max(0, Math.floor((length - 2 * END_MARGIN_M) / STOP_SPACING_M));
      const begin = a + (length - (n - 1) * STOP_SPACING_M) / 2;
      for (let i = 0; i < n; i++) {
        const jitter = (unit(seed, 0xb07, first.line, r, i, first.dir === "row" ? 0 : 1) * 2 - 1) * JITTER_M;
        let p = begin + i * STOP_SPACING_M + jitter;
        // Off the crossing, towards the middle of the run where the crossing is at its end.
        const x = nearest(across, p);
        if (x !== null && Math.abs(p - x) < clear) {
          const up = x + clear <= b && (p >= x || x - clear < a);
          p = up ? x + clear : x - clear;
        }
        // Alternate kerbs along the run, as the stops of the two directions do.
        const side = (i + r) % 2 === 0 ? 1 : -1;
        const [u, v] = onStreet(first, p, side * (road / 2 - KERB_M));
        const on = stretches.find((s) => s.parts.some(([c, d]) => p >= c && p <= d)) ?? first;
        out.push({
          u,
          v,
          street: on.name,
          near: nearStreet(grid, on, p),
          dir: first.dir,
          line: first.line,
          run: r,
          along: p,
        });
      }
    });
  }
  return out;
}

// The street crossing `on` nearest to `p` along it, of those built where they cross it.
function nearStreet(grid: StreetGrid, on: Street, p: number): string | null {
  let best: { d: number; name: string } | null = null;
  for (const s of grid.streets) {
    if (s.dir === on.dir) continue;
    // The crossing street must reach this line (its parts end on the line's centre at a corner).
    if (!s.parts.some(([c, d]) => on.at >= c - 1e-3 && on.at <= d + 1e-3)) continue;
    const d = Math.abs(s.at - p);
    if (!best || d < best.d) best = { d, name: s.name };
  }
  return best?.name ?? null;
}
