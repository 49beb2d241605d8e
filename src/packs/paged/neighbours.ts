// A lots pack's precomputed adjacency (issue 55, docs/design.md section 14): per lot, the lots sharing at least 2 m of
// boundary with it and the metres shared, computed at build time (src/assemble/adjacency.ts, the query's own code).
//
// Neighbours are named by their ordinal in the pack (the lot's place in page order: the pages' feature counts before
// its page plus its index in the page), so one found on another page is found from the root alone. Stored as a `text`
// column, one short ASCII string a lot: per neighbour the zigzag difference of its ordinal from the lot's and the
// shared length in decimetres, each a base-32 number whose last digit is one of TERMINAL and the others of MORE (lots
// in Hilbert order sit near their neighbours: most differences take one or two characters). null: no neighbour.
import { adjacentPairs } from "./adjacency.ts";
import type { FeatureGeometry } from "./feature-geometry.ts";
import { type ColumnSpec, UNITS_PER_DEGREE } from "./schema.ts";

export const NEIGHBOURS_COLUMN: ColumnSpec = { name: "neighbours", type: "text" };

/** An outline's rings as [lon, lat] positions. */
export type OutlineRings = readonly (readonly (readonly [number, number])[])[];

/** Computes the column for `count` lots in pack order (`ringsAt`: each lot's rings as its page holds them). */
export type NeighbourBuild = (count: number, ringsAt: (i: number) => OutlineRings) => (string | null)[];

/** A polygon's rings as a page returns them: every position on the 1e-7-degree grid, a closing repeat dropped. */
export function pageRings(g: FeatureGeometry): OutlineRings {
  const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  const q = (v: number) => Math.round(v * UNITS_PER_DEGREE) / UNITS_PER_DEGREE;
  const out: [number, number][][] = [];
  for (const rings of polygons)
    for (const ring of rings) {
      let n = ring.length;
      const first = ring[0];
      const last = ring[n - 1];
      if (n > 1 && first && last && first[0] === last[0] && first[1] === last[1]) n--;
      const r: [number, number][] = [];
      for (let i = 0; i < n; i++) {
        const p = ring[i] as readonly number[];
        r.push([q(p[0] as number), q(p[1] as number)]);
      }
      out.push(r);
    }
  return out;
}

/** A neighbour by its ordinal in the pack, and the metres of boundary shared. */
export type PackNeighbour = { ordinal: number; sharedM: number };

// 32 digits that end a number and 32 that continue it: no digit, so the text coding keeps the string whole.
const TERMINAL = "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&(";
const MORE = "abcdefghijklmnopqrstuvwxyz)*+-./";
const DIGIT = new Map<string, number>([
  ...[...TERMINAL].map((c, k): [string, number] => [c, k]),
  ...[...MORE].map((c, k): [string, number] => [c, 32 + k]),
]);

function put(out: string[], v: number): void {
  let x = v;
  const digits: number[] = [];
  do {
    digits.push(x % 32);
    x = Math.floor(x / 32);
  } while (x > 0);
  // Most significant first; the least significant digit ends the number.
  for (let k = digits.length - 1; k > 0; k--) out.push(MORE[digits[k] as number] as string);
  out.push(TERMINAL[digits[0] as number] as string);
}

const zigzag = (d: number) => (d >= 0 ? 2 * d : -2 * d - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/** The column's value for the lot at `ordinal`: its neighbours by ordinal ascending; null when it has none. */
export function encodeNeighbours(ordinal: number, list: readonly PackNeighbour[]): string | null {
  if (list.length === 0) return null;
  const out: string[] = [];
  for (const n of [...list].sort((a, b) => a.ordinal - b.ordinal)) {
    put(out, zigzag(n.ordinal - ordinal));
    put(out, Math.max(0, Math.round(n.sharedM * 10)));
  }
  return out.join("");
}

/** The neighbours a column's value names, for the lot at `ordinal`; a malformed value is refused with a sentence. */
export function decodeNeighbours(ordinal: number, value: string | null): PackNeighbour[] {
  if (value === null || value === "") return [];
  const nums: number[] = [];
  let x = 0;
  let open = false;
  for (const c of value) {
    const d = DIGIT.get(c);
    if (d === undefined) throw new RangeError(`neighbours "${value}" holds "${c}", not a digit of the column's coding`);
    if (d >= 32) {
      x = x * 32 + (d - 32);
      open = true;
    } else {
      nums.push(x * 32 + d);
      x = 0;
      open = false;
    }
  }
  if (nums.length % 2 !== 0 || open) throw new RangeError(`neighbours "${value}" ends inside a neighbour`);
  const out: PackNeighbour[] = [];
  for (let k = 0; k < nums.length; k += 2) {
    out.push({ ordinal: ordinal + unzigzag(nums[k] as number), sharedM: (nums[k + 1] as number) / 10 });
  }
  return out;
}

/** Each page's first ordinal, from the root's feature counts: ordinal = firsts[page] + index in the page. */
export function firstOrdinals(pageCounts: ArrayLike<number>): Float64Array {
  const out = new Float64Array(pageCounts.length + 1);
  for (let p = 0; p < pageCounts.length; p++) out[p + 1] = (out[p] as number) + (pageCounts[p] as number);
  return out;
}

/** Each lot's neighbours held compactly (a world's 1.5M lots in typed arrays, not an object a neighbour). */
export type NeighbourTable = { valueAt(i: number): string | null; pairsCompared: number };

/** Every lot's neighbours by its ordinal (its index in `ringsAt`'s order), by the one adjacency kernel. */
export function neighbourTable(count: number, ringsAt: (i: number) => OutlineRings): NeighbourTable {
  // The pairs as found, then by lot (offsets into the lots' runs of neighbours and decimetres shared).
  let a = new Int32Array(1024);
  let b = new Int32Array(1024);
  let dm = new Uint32Array(1024);
  let pairs = 0;
  const pairsCompared = adjacentPairs(count, ringsAt, (i, j, m) => {
    if (pairs === a.length) {
      const grow = <T extends Int32Array | Uint32Array>(x: T, make: (n: number) => T) => {
        const y = make(2 * x.length);
        y.set(x);
        return y;
      };
      a = grow(a, (n) => new Int32Array(n));
      b = grow(b, (n) => new Int32Array(n));
      dm = grow(dm, (n) => new Uint32Array(n));
    }
    a[pairs] = i;
    b[pairs] = j;
    dm[pairs] = Math.max(0, Math.round(m * 10));
    pairs++;
  });
  const starts = new Uint32Array(count + 1);
  for (let k = 0; k < pairs; k++) {
    (starts[(a[k] as number) + 1] as number)++;
    (starts[(b[k] as number) + 1] as number)++;
  }
  for (let i = 0; i < count; i++) starts[i + 1] = (starts[i + 1] as number) + (starts[i] as number);
  const fill = starts.slice(0, count);
  const other = new Int32Array(2 * pairs);
  const shared = new Uint32Array(2 * pairs);
  const put = (i: number, j: number, d: number) => {
    const at = (fill[i] as number)++;
    other[at] = j;
    shared[at] = d;
  };
  for (let k = 0; k < pairs; k++) {
    put(a[k] as number, b[k] as number, dm[k] as number);
    put(b[k] as number, a[k] as number, dm[k] as number);
  }
  return {
    pairsCompared,
    valueAt: (i) => {
      const list: PackNeighbour[] = [];
      for (let at = starts[i] as number; at < (starts[i + 1] as number); at++)
        list.push({ ordinal: other[at] as number, sharedM: (shared[at] as number) / 10 });
      return encodeNeighbours(i, list);
    },
  };
}

/** Each lot's column value by its ordinal, and the pairs compared. */
export function neighbourValuesOf(
  count: number,
  ringsAt: (i: number) => OutlineRings,
): { values: (string | null)[]; pairsCompared: number } {
  const t = neighbourTable(count, ringsAt);
  return { values: Array.from({ length: count }, (_, i) => t.valueAt(i)), pairsCompared: t.pairsCompared };
}

/** The builders' hook (PackOptions.neighbours): the column's values alone. */
export const neighbourValues: NeighbourBuild = (count, ringsAt) => neighbourValuesOf(count, ringsAt).values;
