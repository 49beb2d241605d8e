// Point-in-polygon through an index of a feature's edges in horizontal bands: a point tests only the edges whose
// y-span meets its band, with pointInRing's exact predicate, so the answer is bit-for-bit pointInFeature's.
import type { Columns } from "./types.ts";

// Entries (an edge in a band) kept per edge at most: long vertical edges in many bands then mean fewer bands.
const ENTRIES_PER_EDGE = 8;
const MAX_BANDS = 4096;

export class EdgeBands {
  private readonly y0: number;
  private readonly y1: number;
  private readonly scale: number;
  private readonly bands: number;
  // Band b's edges are at[start[b] .. start[b + 1]); edge e is (xi, yi, xj, yj) at xy[4e .. 4e + 4].
  private readonly start: Uint32Array;
  private readonly at: Uint32Array;
  private readonly xy: Float64Array;
  /** Edges tested so far, for budgets and tests. */
  edgesTested = 0;

  constructor(c: Columns, feature = 0) {
    const r0 = c.polyOffsets[c.featureOffsets[feature] as number] as number;
    const r1 = c.polyOffsets[c.featureOffsets[feature + 1] as number] as number;
    const edges: number[] = [];
    let y0 = Infinity;
    let y1 = -Infinity;
    for (let r = r0; r < r1; r++) {
      const v0 = c.ringOffsets[r] as number;
      const v1 = c.ringOffsets[r + 1] as number;
      let xj = c.coords[2 * v1 - 2] as number;
      let yj = c.coords[2 * v1 - 1] as number;
      for (let v = v0; v < v1; v++) {
        const xi = c.coords[2 * v] as number;
        const yi = c.coords[2 * v + 1] as number;
        // A horizontal edge never passes the crossing test (yi > y !== yj > y), so it is left out.
        if (yi !== yj) {
          edges.push(xi, yi, xj, yj);
          y0 = Math.min(y0, yi, yj);
          y1 = Math.max(y1, yi, yj);
        }
        xj = xi;
        yj = yi;
      }
    }
    this.xy = Float64Array.from(edges);
    const n = edges.length / 4;
    this.y0 = y0;
    this.y1 = y1;
    let bands = Math.max(1, Math.min(MAX_BANDS, n));
    let scale = n > 0 ? bands / (y1 - y0) : 0;
    // Fewer bands while edges would sit in too many of them (a comb of tall teeth).
    while (bands > 1 && this.entries(bands, bands / (y1 - y0)) > ENTRIES_PER_EDGE * n) {
      bands = Math.max(1, bands >> 1);
      scale = bands / (y1 - y0);
    }
    this.bands = bands;
    this.scale = scale;
    const counts = new Uint32Array(bands + 1);
    for (let e = 0; e < n; e++) {
      const [a, b] = this.span(e);
      for (let k = a; k <= b; k++) counts[k + 1] = (counts[k + 1] as number) + 1;
    }
    for (let k = 0; k < bands; k++) counts[k + 1] = (counts[k + 1] as number) + (counts[k] as number);
    this.start = counts.slice();
    this.at = new Uint32Array(counts[bands] as number);
    const fill = counts.slice(0, bands);
    for (let e = 0; e < n; e++) {
      const [a, b] = this.span(e);
      for (let k = a; k <= b; k++) {
        this.at[fill[k] as number] = e;
        fill[k] = (fill[k] as number) + 1;
      }
    }
  }

  // One formula for edges and points: it is monotonic in y, so an edge crossed at y sits in y's band.
  private bandOf(y: number, bands = this.bands, scale = this.scale): number {
    return Math.min(bands - 1, Math.max(0, Math.floor((y - this.y0) * scale)));
  }

  private span(e: number, bands = this.bands, scale = this.scale): [number, number] {
    const ya = this.xy[4 * e + 1] as number;
    const yb = this.xy[4 * e + 3] as number;
    return [this.bandOf(Math.min(ya, yb), bands, scale), this.bandOf(Math.max(ya, yb), bands, scale)];
  }

  private entries(bands: number, scale: number): number {
    let total = 0;
    for (let e = 0; e < this.xy.length / 4; e++) {
      const [a, b] = this.span(e, bands, scale);
      total += b - a + 1;
    }
    return total;
  }

  /** Even-odd over every ring of the feature, as pointInFeature. */
  contains(x: number, y: number): boolean {
    // Outside the edges' y-range no edge has one end above y and one not.
    if (!(y >= this.y0 && y < this.y1)) return false;
    const b = this.bandOf(y);
    const xy = this.xy;
    const at = this.at;
    const end = this.start[b + 1] as number;
    let inside = false;
    for (let m = this.start[b] as number; m < end; m++) {
      const e = 4 * (at[m] as number);
      const xi = xy[e] as number;
      const yi = xy[e + 1] as number;
      const xj = xy[e + 2] as number;
      const yj = xy[e + 3] as number;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    this.edgesTested += end - (this.start[b] as number);
    return inside;
  }
}
