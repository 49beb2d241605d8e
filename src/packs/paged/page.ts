// One self-contained data page: header, flatbush index, delta-coded geometry, typed attribute columns, crc32.
import Flatbush from "flatbush";
import type { Columns } from "../../geo/types.ts";
import { pointInFeature, pointInRing } from "../../geo/pip.ts";
import { crc32 } from "../crc32.ts";
import { ByteReader, ByteWriter } from "./bytes.ts";
import { PageRefusedError } from "./errors.ts";
import {
  type ColumnCoding,
  COLUMN_CODING,
  type PageColumn,
  type PageFeature,
  readColumn,
  readPackedColumn,
  writeColumn,
  writePackedColumn,
} from "./page-columns.ts";
import { type BoxGrid, buildBoxGrid, gridCell, searchInto } from "./point-search.ts";
import { type ColumnSpec, PAGE_HEADER_BYTES, PAGE_MAGIC, UNITS_PER_DEGREE, type Value } from "./schema.ts";

export type DecodedPage = Columns & {
  no: number;
  count: number;
  index: Flatbush;
  // Quantised page frame [minX, minY, maxX, maxY]: the index's u16 grid spans it.
  frame: Int32Array;
  columns: PageColumn[];
  // Bytes this decoded page holds, for the cache's budget.
  bytes: number;
  // Built on the first point lookup (ensurePageGrid), its bytes then charged to the cache.
  grid?: PageGrid;
};

export { type ColumnCoding, COLUMN_CODING, type PageColumn, type PageFeature } from "./page-columns.ts";

const GRID = 0xffff;

// Outward rounding onto the page's u16 grid keeps every box a superset of its feature.
function gridLo(q: number, lo: number, span: number): number {
  return Math.max(0, Math.min(GRID, Math.floor(((q - lo) * GRID) / span)));
}
function gridHi(q: number, lo: number, span: number): number {
  return Math.max(0, Math.min(GRID, Math.ceil(((q - lo) * GRID) / span)));
}

export function frameSpan(frame: Int32Array): [number, number] {
  return [
    Math.max(1, (frame[2] as number) - (frame[0] as number)),
    Math.max(1, (frame[3] as number) - (frame[1] as number)),
  ];
}

// Candidates of one query; searchInto fills it, so a lookup allocates nothing.
const found: number[] = [];

// Writes the features whose grid box meets the box in degrees into `out`; returns how many (any order).
function searchPageInto(page: DecodedPage, w: number, s: number, e: number, n: number, out: number[]): number {
  const f = page.frame;
  const x0 = f[0] as number;
  const y0 = f[1] as number;
  const sx = Math.max(1, (f[2] as number) - x0);
  const sy = Math.max(1, (f[3] as number) - y0);
  const qw = Math.floor(w * UNITS_PER_DEGREE);
  const qs = Math.floor(s * UNITS_PER_DEGREE);
  const qe = Math.ceil(e * UNITS_PER_DEGREE);
  const qn = Math.ceil(n * UNITS_PER_DEGREE);
  if (qe < x0 || qw > (f[2] as number) || qn < y0 || qs > (f[3] as number)) return 0;
  return searchInto(page.index, gridLo(qw, x0, sx), gridLo(qs, y0, sy), gridHi(qe, x0, sx), gridHi(qn, y0, sy), out);
}

/** Searches a page's index for a box in degrees; ids are feature numbers within the page. */
export function searchPage(page: DecodedPage, w: number, s: number, e: number, n: number): number[] {
  const count = searchPageInto(page, w, s, e, n, found);
  return found.slice(0, count);
}

// A feature of more than one ring has no single vertex range: pointInFeature walks its offsets.
const NOT_SIMPLE = 0xffffffff;

/** A page's point grid: its features by cell (ascending ids) and each one-ring feature's vertex range. */
export type PageGrid = BoxGrid & { rings: Uint32Array };

/** Builds the page's point grid over its index's leaf boxes if it has none; returns the bytes it added. */
export function ensurePageGrid(page: DecodedPage): number {
  if (page.grid) return 0;
  const boxes = page.index._boxes;
  const ids = page.index._indices;
  const n = page.count;
  const posOf = new Uint32Array(n);
  for (let pos = 0; pos < n; pos++) posOf[ids[pos] as number] = pos;
  // About one lot a cell: a power of two per side, so a cell is a whole number of grid units.
  const side = Math.min(256, 2 ** Math.ceil(Math.log2(Math.max(1, Math.sqrt(n)))));
  const grid = buildBoxGrid(n, [0, 0, GRID + 1, GRID + 1], side, (i, out) => {
    const pos = 4 * (posOf[i] as number);
    out[0] = boxes[pos] as number;
    out[1] = boxes[pos + 1] as number;
    out[2] = boxes[pos + 2] as number;
    out[3] = boxes[pos + 3] as number;
  });
  if (!grid) return 0;
  const rings = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const p0 = page.featureOffsets[i] as number;
    const r0 = page.polyOffsets[p0] as number;
    const simple = (page.featureOffsets[i + 1] as number) === p0 + 1 && (page.polyOffsets[p0 + 1] as number) === r0 + 1;
    rings[2 * i] = simple ? (page.ringOffsets[r0] as number) : NOT_SIMPLE;
    rings[2 * i + 1] = simple ? (page.ringOffsets[r0 + 1] as number) : 0;
  }
  page.grid = { ...grid, rings };
  return grid.bytes + rings.byteLength;
}

/**
 * The lowest feature of the page whose polygon holds the point (even-odd, holes excluded), or -1; through the
 * page's grid when ensurePageGrid has built it, else its flatbush.
 */
export function lotInPage(page: DecodedPage, lon: number, lat: number): number {
  const g = page.grid;
  if (!g) {
    const count = searchPageInto(page, lon, lat, lon, lat, found);
    let best = -1;
    for (let k = 0; k < count; k++) {
      const i = found[k] as number;
      if ((best < 0 || i < best) && pointInFeature(page, i, lon, lat)) best = i;
    }
    return best;
  }
  const f = page.frame;
  const x0 = f[0] as number;
  const y0 = f[1] as number;
  const qw = Math.floor(lon * UNITS_PER_DEGREE);
  const qs = Math.floor(lat * UNITS_PER_DEGREE);
  const qe = Math.ceil(lon * UNITS_PER_DEGREE);
  const qn = Math.ceil(lat * UNITS_PER_DEGREE);
  if (!(qe >= x0 && qw <= (f[2] as number) && qn >= y0 && qs <= (f[3] as number))) return -1;
  const sx = Math.max(1, (f[2] as number) - x0);
  const sy = Math.max(1, (f[3] as number) - y0);
  // The point's cells on the page's u16 grid, rounded outward as every box is (one cell but on a cell's edge).
  const lo = gridCell(g, gridLo(qw, x0, sx), gridLo(qs, y0, sy));
  const hi = gridCell(g, gridHi(qe, x0, sx), gridHi(qn, y0, sy));
  const side = g.side;
  const { starts, items, rings } = g;
  const coords = page.coords;
  let best = -1;
  for (let cy = (lo / side) | 0; cy <= ((hi / side) | 0); cy++) {
    for (let cx = lo % side; cx <= hi % side; cx++) {
      const c = cy * side + cx;
      const end = starts[c + 1] as number;
      // Ids ascend within a cell: the first lot holding the point is the cell's lowest.
      for (let k = starts[c] as number; k < end; k++) {
        const i = items[k] as number;
        if (best >= 0 && i >= best) break;
        const v0 = rings[2 * i] as number;
        const inside =
          v0 === NOT_SIMPLE
            ? pointInFeature(page, i, lon, lat)
            : pointInRing(coords, v0, rings[2 * i + 1] as number, lon, lat);
        if (inside) {
          best = i;
          break;
        }
      }
    }
  }
  return best;
}

/**
 * Encodes page `no`: sections [index, geometry, ...columns], each 8-aligned; the page is padded to 8 bytes.
 * `coding` 0 writes the columns as packs before issue 33's coding did (kept for tests that old pages still read).
 */
export function encodePage(
  no: number,
  features: readonly PageFeature[],
  columns: readonly ColumnSpec[],
  coding: ColumnCoding = COLUMN_CODING,
): Uint8Array {
  const n = features.length;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const f of features) {
    x0 = Math.min(x0, f.minX);
    y0 = Math.min(y0, f.minY);
    x1 = Math.max(x1, f.maxX);
    y1 = Math.max(y1, f.maxY);
  }
  const frame = Int32Array.of(x0, y0, x1, y1);
  const [sx, sy] = frameSpan(frame);
  const index = new Flatbush(n, 16, Uint16Array);
  for (const f of features) {
    index.add(gridLo(f.minX, x0, sx), gridLo(f.minY, y0, sy), gridHi(f.maxX, x0, sx), gridHi(f.maxY, y0, sy));
  }
  index.finish();

  const sectionCount = 2 + columns.length;
  const w = new ByteWriter(64 * 1024);
  for (let i = 0; i < PAGE_HEADER_BYTES + 8 * sectionCount; i++) w.u8(0);
  const table: number[] = [];
  const begin = (): number => {
    w.align(8);
    return w.length;
  };
  let start = begin();
  w.bytes(new Uint8Array(index.data));
  table.push(start, w.length - start);

  start = begin();
  // Deltas chain from the frame's corner through every vertex of the page in order.
  let px = x0;
  let py = y0;
  for (const f of features) {
    w.varint(f.polygons.length);
    for (const rings of f.polygons) {
      w.varint(rings.length);
      for (const ring of rings) {
        const nv = ring.length >> 1;
        w.varint(nv);
        for (let v = 0; v < nv; v++) {
          const x = ring[2 * v] as number;
          const y = ring[2 * v + 1] as number;
          w.zigzag(x - px);
          w.zigzag(y - py);
          px = x;
          py = y;
        }
      }
    }
  }
  table.push(start, w.length - start);

  for (let c = 0; c < columns.length; c++) {
    start = begin();
    (coding === 1 ? writePackedColumn : writeColumn)(w, columns[c] as ColumnSpec, features, c);
    table.push(start, w.length - start);
  }
  w.align(8);
  const out = w.finish();
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = PAGE_MAGIC.charCodeAt(i);
  v.setUint32(8, no, true);
  v.setUint32(12, n, true);
  v.setUint32(16, sectionCount, true);
  v.setUint32(20, coding, true);
  for (let i = 0; i < 4; i++) v.setInt32(24 + 4 * i, frame[i] as number, true);
  for (let i = 0; i < table.length; i++) v.setUint32(PAGE_HEADER_BYTES + 4 * i, table[i] as number, true);
  v.setUint32(4, crc32(out.subarray(8)), true);
  return out;
}

/** Verifies then decodes page `no`; any failure refuses this page alone, naming it. */
export function decodePage(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  columns: readonly ColumnSpec[],
  key: string,
): DecodedPage {
  const refuse = (why: string): PageRefusedError => new PageRefusedError(`pack ${key} page ${no} refused: ${why}`, no);
  if (b.length < PAGE_HEADER_BYTES) throw refuse(`only ${b.length} bytes`);
  const got = crc32(b.subarray(8));
  if (got !== expectedCrc) {
    throw refuse(`checksum mismatch (crc32 ${got.toString(16)}, root says ${expectedCrc.toString(16)})`);
  }
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const magic = String.fromCharCode(b[0] as number, b[1] as number, b[2] as number, b[3] as number);
  if (magic !== PAGE_MAGIC) throw refuse(`magic "${magic}", expected "${PAGE_MAGIC}"`);
  if (v.getUint32(8, true) !== no) throw refuse(`it says it is page ${v.getUint32(8, true)}`);
  const n = v.getUint32(12, true);
  const sectionCount = v.getUint32(16, true);
  if (sectionCount !== 2 + columns.length) throw refuse(`${sectionCount} sections, expected ${2 + columns.length}`);
  const coding = v.getUint32(20, true);
  if (coding > 1) throw refuse(`unknown column coding ${coding}`);
  const read = coding === 1 ? readPackedColumn : readColumn;
  const frame = new Int32Array(4);
  for (let i = 0; i < 4; i++) frame[i] = v.getInt32(24 + 4 * i, true);
  const sec = (i: number): [number, number] => {
    const off = v.getUint32(PAGE_HEADER_BYTES + 8 * i, true);
    const len = v.getUint32(PAGE_HEADER_BYTES + 8 * i + 4, true);
    if (off + len > b.length) throw refuse(`section ${i} extends past the page`);
    return [off, len];
  };
  try {
    const [io, il] = sec(0);
    const index = Flatbush.from(b.slice(io, io + il).buffer);
    if (index.numItems !== n) throw new RangeError(`index holds ${index.numItems} items, page ${n}`);

    const [go, gl] = sec(1);
    const r = new ByteReader(b, go, go + gl);
    const coords: number[] = [];
    const ringOffsets: number[] = [0];
    const polyOffsets: number[] = [0];
    const featureOffsets: number[] = [0];
    let px = frame[0] as number;
    let py = frame[1] as number;
    for (let i = 0; i < n; i++) {
      const np = r.varint();
      for (let p = 0; p < np; p++) {
        const nr = r.varint();
        for (let q = 0; q < nr; q++) {
          const nv = r.varint();
          for (let k = 0; k < nv; k++) {
            px += r.zigzag();
            py += r.zigzag();
            coords.push(px / UNITS_PER_DEGREE, py / UNITS_PER_DEGREE);
          }
          ringOffsets.push(coords.length >> 1);
        }
        polyOffsets.push(ringOffsets.length - 1);
      }
      featureOffsets.push(polyOffsets.length - 1);
    }
    const cols: PageColumn[] = [];
    let bytes = il + 8 * coords.length + 4 * (ringOffsets.length + polyOffsets.length + featureOffsets.length);
    for (let c = 0; c < columns.length; c++) {
      const [co, cl] = sec(2 + c);
      const col = read(columns[c] as ColumnSpec, b, co, cl, n);
      if (col.kind === "num") bytes += col.values.byteLength;
      else if (col.kind === "dict") bytes += col.codes.byteLength + col.dict.reduce((s, d) => s + 2 * d.length + 16, 0);
      else bytes += col.values.reduce((s, d) => s + 2 * (d?.length ?? 0) + 16, 0);
      cols.push(col);
    }
    return {
      no,
      count: n,
      index,
      frame,
      columns: cols,
      coords: Float64Array.from(coords),
      ringOffsets: Uint32Array.from(ringOffsets),
      polyOffsets: Uint32Array.from(polyOffsets),
      featureOffsets: Uint32Array.from(featureOffsets),
      bytes,
    };
  } catch (e) {
    if (e instanceof PageRefusedError) throw e;
    throw refuse(e instanceof Error ? e.message : String(e));
  }
}

/** The value of column `c` for feature `i`, nulls restored and fixed-point scaled back. */
export function pageValue(page: DecodedPage, c: number, i: number): Value {
  const col = page.columns[c];
  if (!col) return null;
  if (col.kind === "text") return col.values[i] ?? null;
  if (col.kind === "dict") {
    const code = col.codes[i] as number;
    return code === 0 ? null : (col.dict[code - 1] ?? null);
  }
  const raw = col.values[i] as number;
  if (Number.isNaN(raw) || raw === col.nullValue) return null;
  return col.scale === 1 ? raw : raw / col.scale;
}
