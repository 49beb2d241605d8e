// The world's walking graph (issue 50, item 2): its streets, split at every crossing, joined across suburb boundaries
// where one suburb's street ends near another's, and from every street point the walk to the nearest Schedule 11
// station and the nearest designated town centre (multi-source Dijkstra). A station or a centre joins the streets at
// its nearest street point, as a lot does (walk-index.ts); every leg is a straight line on the walk plane, so no walk is
// shorter than the straight line.
import type { TownCentre } from "./town-centres.ts";
import { type DirectSource, joinStreet, segmentGrid, type WalkData, type WalkField, BoxGrid } from "./walk-index.ts";
import { px, py, quadDistance } from "./walk-plane.ts";
import type { WalkLine } from "./world-map.ts";

// A street ending this near another suburb's street point is joined to it (suburbs' grids do not share points).
const LINK_M = 120;

type Graph = { x: number[]; y: number[]; suburb: number[]; segs: Float64Array; ends: Int32Array; links: number[] };

function graphOf(walks: readonly WalkLine[]): Graph {
  const ids = new Map<string, number>();
  const x: number[] = [];
  const y: number[] = [];
  const suburb: number[] = [];
  const node = (lon: number, lat: number, s: number): number => {
    const k = `${Math.round(lon * 1e7)},${Math.round(lat * 1e7)}`;
    let id = ids.get(k);
    if (id === undefined) {
      id = x.length;
      ids.set(k, id);
      x.push(px(lon));
      y.push(py(lat));
      suburb.push(s);
    }
    return id;
  };
  const segs: number[] = [];
  const ends: number[] = [];
  for (const w of walks) {
    let prev = -1;
    for (let k = 0; k < w.coords.length; k += 2) {
      const id = node(w.coords[k] as number, w.coords[k + 1] as number, w.suburb);
      if (prev >= 0 && prev !== id) {
        segs.push(x[prev] as number, y[prev] as number, x[id] as number, y[id] as number);
        ends.push(prev, id);
      }
      prev = id;
    }
  }
  // Where a suburb's street stops (a node with one or two streets) near another suburb's street point, they meet.
  const degree = new Int32Array(x.length);
  for (const e of ends) degree[e] = (degree[e] as number) + 1;
  const grid = new BoxGrid();
  for (let i = 0; i < x.length; i++) grid.add(i, x[i] as number, y[i] as number, x[i] as number, y[i] as number);
  const links: number[] = [];
  for (let i = 0; i < x.length; i++) {
    if ((degree[i] as number) > 2) continue;
    const xi = x[i] as number;
    const yi = y[i] as number;
    const hit = grid.nearest(xi, yi, LINK_M, (j) =>
      suburb[j] === suburb[i] ? Number.POSITIVE_INFINITY : Math.hypot(xi - (x[j] as number), yi - (y[j] as number)),
    );
    if (hit.i >= 0) links.push(i, hit.i);
  }
  return { x, y, suburb, segs: Float64Array.from(segs), ends: Int32Array.from(ends), links };
}

type Source = { x: number; y: number; seed: number; label: number };

// A binary heap of (distance, node), smallest first; entries made stale by a shorter walk are skipped when popped.
class Heap {
  private d: number[] = [];
  private n: number[] = [];
  get size(): number {
    return this.d.length;
  }
  push(d: number, n: number): void {
    const { d: ds, n: ns } = this;
    let i = ds.length;
    ds.push(d);
    ns.push(n);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((ds[p] as number) <= d) break;
      ds[i] = ds[p] as number;
      ns[i] = ns[p] as number;
      i = p;
    }
    ds[i] = d;
    ns[i] = n;
  }
  pop(): [number, number] {
    const { d: ds, n: ns } = this;
    const top: [number, number] = [ds[0] as number, ns[0] as number];
    const lastD = ds.pop() as number;
    const lastN = ns.pop() as number;
    if (ds.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= ds.length) break;
        const r = l + 1;
        const c = r < ds.length && (ds[r] as number) < (ds[l] as number) ? r : l;
        if ((ds[c] as number) >= lastD) break;
        ds[i] = ds[c] as number;
        ns[i] = ns[c] as number;
        i = c;
      }
      ds[i] = lastD;
      ns[i] = lastN;
    }
    return top;
  }
}

/** Multi-source Dijkstra: each node's walk to its nearest source, the sources joined at their nearest street points. */
function fieldOf(g: Graph, grid: BoxGrid, sources: readonly Source[]): WalkField {
  const n = g.x.length;
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const label = new Int32Array(n).fill(-1);
  const direct: DirectSource[] = [];
  const heap = new Heap();
  const seedNode = (v: number, d: number, l: number) => {
    if (d < (dist[v] as number)) {
      dist[v] = d;
      label[v] = l;
      heap.push(d, v);
    }
  };
  for (const s of sources) {
    const p = joinStreet(grid, g.segs, s.x, s.y);
    if (p === null) continue;
    const seed = s.seed + p.d;
    seedNode(g.ends[2 * p.seg] as number, seed + p.t * p.len, s.label);
    seedNode(g.ends[2 * p.seg + 1] as number, seed + (1 - p.t) * p.len, s.label);
    direct.push({ seg: p.seg, t: p.t, seed, label: s.label });
  }
  // Adjacency: the street segments, and the links across suburbs.
  const adj: number[][] = Array.from({ length: n }, () => []);
  const edge = (a: number, b: number) => {
    const w = Math.hypot((g.x[a] as number) - (g.x[b] as number), (g.y[a] as number) - (g.y[b] as number));
    (adj[a] as number[]).push(b, w);
    (adj[b] as number[]).push(a, w);
  };
  for (let i = 0; i < g.ends.length; i += 2) edge(g.ends[i] as number, g.ends[i + 1] as number);
  for (let i = 0; i < g.links.length; i += 2) edge(g.links[i] as number, g.links[i + 1] as number);
  while (heap.size > 0) {
    const [d, v] = heap.pop();
    if (d > (dist[v] as number)) continue;
    const list = adj[v] as number[];
    for (let k = 0; k < list.length; k += 2) {
      const u = list[k] as number;
      const nd = d + (list[k + 1] as number);
      if (nd < (dist[u] as number)) {
        dist[u] = nd;
        label[u] = label[v] as number;
        heap.push(nd, u);
      }
    }
  }
  return { dist, label, direct };
}

export type WalkStation = { name: string; lon: number; lat: number };

/** Everything a world thread needs to measure its lots' walks. */
export function walkData(
  walks: readonly WalkLine[],
  stations: readonly WalkStation[],
  centres: readonly TownCentre[],
): WalkData {
  const g = graphOf(walks);
  const grid = segmentGrid(g.segs);
  const stationXY = Float64Array.from(stations.flatMap((s) => [px(s.lon), py(s.lat)]));
  const station = fieldOf(
    g,
    grid,
    stations.map((_, i) => ({ x: stationXY[2 * i] as number, y: stationXY[2 * i + 1] as number, seed: 0, label: i })),
  );
  const quads: number[] = [];
  const centreOf: number[] = [];
  const centreSources: Source[] = [];
  centres.forEach((c, label) => {
    for (let k = 0; k < c.quads.length; k += 8) {
      const q = Array.from(c.quads.subarray(k, k + 8));
      quads.push(...q);
      centreOf.push(label);
      // The quad's land reaches the street nearest its middle; the walk from there to the land is its seed.
      const mx = (q[0]! + q[2]! + q[4]! + q[6]!) / 4;
      const my = (q[1]! + q[3]! + q[5]! + q[7]!) / 4;
      const p = joinStreet(grid, g.segs, mx, my);
      if (p === null) continue;
      const ax = g.segs[4 * p.seg] as number;
      const ay = g.segs[4 * p.seg + 1] as number;
      const sx = ax + p.t * ((g.segs[4 * p.seg + 2] as number) - ax);
      const sy = ay + p.t * ((g.segs[4 * p.seg + 3] as number) - ay);
      centreSources.push({ x: sx, y: sy, seed: quadDistance(sx, sy, q), label });
    }
  });
  const centre = fieldOf(g, grid, centreSources);
  return {
    segs: g.segs,
    ends: g.ends,
    station,
    centre,
    stationNames: stations.map((s) => s.name),
    stationXY,
    centreNames: centres.map((c) => c.name),
    centreQuads: Float64Array.from(quads),
    centreOf: Int32Array.from(centreOf),
  };
}
