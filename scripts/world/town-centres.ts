// The world's town centres, designated by a stated rule in place of the Department's Town Centres Map (docs/design.md
// section 10): centre-zoned land (E1, E2, MU1) within TOWN_CENTRE_RULE.joinM of other such land is one cluster, and a
// cluster is a town centre only when its land reaches TOWN_CENTRE_RULE.minAreaM2 (a full-line supermarket and its
// shops). Each is named after the suburb holding most of its land ("Penrith town centre"), a second one of a suburb by
// where it lies from the first ("Penrith east town centre").
import { TOWN_CENTRE_RULE } from "../../src/scoring/rules/lmr-places.ts";
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";
import { BoxGrid } from "./walk-index.ts";
import { px, py, quadDistance } from "./walk-plane.ts";

/** A piece of centre land: its quad (1e-7 degree units, as the lots' corners) and the suburb it lies in. */
export type CentreLand = { quad: Int32Array; suburb: string };
export type TownCentre = { name: string; areaM2: number; quads: Float64Array };
export type CentreClusters = { centres: TownCentre[]; clusters: number; smallest: number; belowRule: number };

const plane = (q: Int32Array): number[] =>
  Array.from({ length: 8 }, (_, k) => (k % 2 === 0 ? px : py)((q[k] as number) / UNITS_PER_DEGREE));

function quadArea(q: readonly number[]): number {
  let a = 0;
  for (let k = 0; k < 8; k += 2) {
    const n = (k + 2) % 8;
    a += (q[k] as number) * (q[n + 1] as number) - (q[n] as number) * (q[k + 1] as number);
  }
  return Math.abs(a) / 2;
}

// Two convex quads' distance: 0 where a corner of one lies in the other, else the nearest corner to the other's edges.
function quadsApart(a: readonly number[], b: readonly number[]): number {
  let d = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 8; k += 2) {
    d = Math.min(
      d,
      quadDistance(a[k] as number, a[k + 1] as number, b),
      quadDistance(b[k] as number, b[k + 1] as number, a),
    );
  }
  return d;
}

// The mean of the quads' corners, in the plane's metres.
function centroid(qs: readonly (readonly number[])[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const q of qs) for (let k = 0; k < 8; k += 2) [x, y] = [x + (q[k] as number), y + (q[k + 1] as number)];
  return [x / (4 * qs.length), y / (4 * qs.length)];
}

const POINTS = ["east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east"] as const;

// Where a suburb's smaller centre lies from its main one, as a person would say it ("Penrith east town centre").
function compass(from: readonly [number, number], to: readonly [number, number]): string {
  const turn = Math.atan2(to[1] - from[1], to[0] - from[0]) / (Math.PI / 4);
  return POINTS[(Math.round(turn) + 8) % 8] as string;
}

/** The clusters of centre land, and those designated town centres, largest first. */
export function townCentres(land: readonly CentreLand[]): CentreClusters {
  const quads = land.map((l) => plane(l.quad));
  const parent = quads.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[i] !== r) {
      const next = parent[i] as number;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  const grid = new BoxGrid();
  const join = TOWN_CENTRE_RULE.joinM;
  quads.forEach((q, i) => {
    const xs = [q[0], q[2], q[4], q[6]] as number[];
    const ys = [q[1], q[3], q[5], q[7]] as number[];
    grid.add(i, Math.min(...xs) - join, Math.min(...ys) - join, Math.max(...xs) + join, Math.max(...ys) + join);
  });
  quads.forEach((q, i) => {
    const xs = [q[0], q[2], q[4], q[6]] as number[];
    const ys = [q[1], q[3], q[5], q[7]] as number[];
    // The grid holds each quad widened by the join distance: any quad near enough shares a cell with this one.
    grid.near(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), (j) => {
      if (j !== i && find(j) !== find(i) && quadsApart(q, quads[j] as number[]) <= join) parent[find(j)] = find(i);
    });
  });
  const byRoot = new Map<number, number[]>();
  quads.forEach((_, i) => {
    const r = find(i);
    const list = byRoot.get(r);
    if (list) list.push(i);
    else byRoot.set(r, [i]);
  });
  const clusters = [...byRoot.values()].map((members) => {
    const area = new Map<string, number>();
    let total = 0;
    for (const i of members) {
      const a = quadArea(quads[i] as number[]);
      total += a;
      const s = (land[i] as CentreLand).suburb;
      area.set(s, (area.get(s) ?? 0) + a);
    }
    const suburb = [...area.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]?.[0] ?? "";
    return { members, total, suburb };
  });
  clusters.sort((a, b) => b.total - a.total || (a.suburb < b.suburb ? -1 : 1));
  const first = new Map<string, [number, number]>();
  const taken = new Set<string>();
  const centres: TownCentre[] = [];
  for (const c of clusters) {
    if (c.total < TOWN_CENTRE_RULE.minAreaM2) continue;
    const at = centroid(c.members.map((i) => quads[i] as number[]));
    const main = first.get(c.suburb);
    if (!main) first.set(c.suburb, at);
    let name = main ? `${c.suburb} ${compass(main, at)} town centre` : `${c.suburb} town centre`;
    for (let n = 2; taken.has(name); n++) name = `${c.suburb} ${compass(main ?? at, at)} town centre ${n}`;
    taken.add(name);
    centres.push({
      name,
      areaM2: Math.round(c.total),
      quads: Float64Array.from(c.members.flatMap((i) => quads[i] as number[])),
    });
  }
  return {
    centres,
    clusters: clusters.length,
    smallest: Math.round(clusters.at(-1)?.total ?? 0),
    belowRule: clusters.length - centres.length,
  };
}
