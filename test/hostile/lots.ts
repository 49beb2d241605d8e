// Large uploads made on the fly, so nothing large sits on disk: square lots on a grid, as compact GeoJSON.

/** Side of a lot, in degrees (about 10 m): four decimals place every corner exactly. */
const SIDE = 0.0001;

export interface LotGrid {
  /** South-west corner of the grid. */
  west: number;
  south: number;
  /** Lots across each row. */
  columns: number;
}

const fix = (v: number) => Number(v.toFixed(4));

/** The square of lot `i` (row-major from the south-west corner), as [west, south, east, north]. */
export function lotSquare(grid: LotGrid, i: number): [number, number, number, number] {
  const x = fix(grid.west + (i % grid.columns) * SIDE);
  const y = fix(grid.south + Math.floor(i / grid.columns) * SIDE);
  return [x, y, fix(x + SIDE * 0.9), fix(y + SIDE * 0.9)];
}

/** The middle of lot `i`: a point only that lot covers. */
export function lotCentre(grid: LotGrid, i: number): [number, number] {
  const [w, s, e, n] = lotSquare(grid, i);
  return [(w + e) / 2, (s + n) / 2];
}

/** The lot id of lot `i`, as a NSW cadastre `lotidstring`. */
export const lotId = (tag: string, i: number) => `${i}//${tag}`;

function feature(grid: LotGrid, tag: string, i: number): string {
  const [w, s, e, n] = lotSquare(grid, i);
  return `{"type":"Feature","properties":{"lotidstring":"${lotId(tag, i)}"},"geometry":{"type":"Polygon","coordinates":[[[${w},${s}],[${e},${s}],[${e},${n}],[${w},${n}],[${w},${s}]]]}}`;
}

/** A FeatureCollection of `count` square lots, in UTF-8, built in chunks (no string of the whole file). */
export function lotsGeoJson(count: number, grid: LotGrid, tag: string): Blob {
  const parts: string[] = ['{"type":"FeatureCollection","features":['];
  let chunk: string[] = [];
  for (let i = 0; i < count; i++) {
    chunk.push(feature(grid, tag, i));
    if (chunk.length === 5_000 || i === count - 1) {
      parts.push(chunk.join(",") + (i === count - 1 ? "" : ","));
      chunk = [];
    }
  }
  parts.push("]}");
  return new Blob(parts, { type: "application/geo+json" });
}
