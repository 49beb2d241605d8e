// One self-contained data page: header, flatbush index, delta-coded geometry, typed attribute columns, crc32.
import Flatbush from "flatbush";
import type { Columns } from "../../geo/types.ts";
import { pointInFeature, pointInFixedRing } from "../../geo/pip.ts";
import { frameFault, sealPage } from "./page-frame.ts";
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
import { leafBoxes, leafIds, searchInto } from "../flatbush-walk.ts";
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

// A point grid's header: the page frame (quantised), cells per side and the shift from u16 grid units to a cell.
const PG_HEAD = 8;
// A point grid entry: the feature's u16 box as x lo|hi<<16 and y lo|hi<<16, then where its block starts.
const PG_ENTRY = 3;
// A block's end when the feature is not one ring of exactly read-back vertices (pointInFeature decides).
const NOT_SIMPLE = -1;

/**
 * A page's point grid, one Int32Array so a warm lookup touches one array: the header, each cell's entry range, then
 * per cell its entries (ascending feature ids) followed by the blocks of the features whose box centre it holds, so
 * a point's lot is often a line or two past its entries. A block: the feature id, where its vertices end (or
 * NOT_SIMPLE) and its one ring's vertices as the pack's fixed-point integers (half the decoded doubles' bytes, read
 * back as the same doubles). A lookup reads a cell's entries and, for a box holding the point, one block.
 */
export type PageGrid = Int32Array;

// The fixed-point integer a decoded coordinate came from, or null if it would not read back as the same double.
function fixedOf(v: number): number | null {
  const q = Math.round(v * UNITS_PER_DEGREE);
  return (q | 0) === q && q / UNITS_PER_DEGREE === v ? q : null;
}

// The vertex range of feature i when it is one ring whose every vertex reads back exactly, else null.
function simpleRing(page: DecodedPage, i: number): [number, number] | null {
  const p0 = page.featureOffsets[i] as number;
  const r0 = page.polyOffsets[p0] as number;
  if ((page.featureOffsets[i + 1] as number) !== p0 + 1 || (page.polyOffsets[p0 + 1] as number) !== r0 + 1) return null;
  const v0 = page.ringOffsets[r0] as number;
  const v1 = page.ringOffsets[r0 + 1] as number;
  for (let k = 2 * v0; k < 2 * v1; k++) if (fixedOf(page.coords[k] as number) === null) return null;
  return [v0, v1];
}

// The cell of the centre of the box at `p` (u16 grid units), where the feature's block is stored.
function homeCell(boxes: ArrayLike<number>, p: number, shift: number, side: number): number {
  const cx = (((boxes[p] as number) + (boxes[p + 2] as number)) >> 1) >> shift;
  const cy = (((boxes[p + 1] as number) + (boxes[p + 3] as number)) >> 1) >> shift;
  return cy * side + cx;
}

/** Builds the page's point grid over its index's leaf boxes if it has none; returns the bytes it added. */
export function ensurePageGrid(page: DecodedPage): number {
  if (page.grid) return 0;
  const boxes = leafBoxes(page.index);
  const ids = leafIds(page.index);
  const n = page.count;
  const posOf = new Uint32Array(n);
  for (let pos = 0; pos < n; pos++) posOf[ids[pos] as number] = pos;
  // About four lots a cell (a power of two per side, so a cell is whole u16 grid units): a few box checks a cell
  // cost less than the larger cell starts of one lot a cell (measured on 1M lots).
  const bits = Math.max(0, Math.min(8, Math.ceil(Math.log2(Math.max(1, Math.sqrt(n)))) - 1));
  const side = 2 ** bits;
  const shift = 16 - bits;
  const cells = side * side;
  const counts = new Uint32Array(cells);
  // Ints of the blocks whose home (the cell of their box's centre) is each cell: stored right after its entries.
  const homeInts = new Uint32Array(cells);
  const rings: ([number, number] | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const p = 4 * (posOf[i] as number);
    for (let cy = (boxes[p + 1] as number) >> shift; cy <= (boxes[p + 3] as number) >> shift; cy++)
      for (let cx = (boxes[p] as number) >> shift; cx <= (boxes[p + 2] as number) >> shift; cx++)
        (counts[cy * side + cx] as number)++;
    const r = simpleRing(page, i);
    rings[i] = r;
    (homeInts[homeCell(boxes, p, shift, side)] as number) += 2 + (r ? 2 * (r[1] - r[0]) : 0);
  }
  // Each cell: its entries, then its home blocks; the cell's entry range is [g[PG_HEAD + 2c], g[PG_HEAD + 2c + 1]).
  let at = PG_HEAD + 2 * cells;
  const fill = new Uint32Array(cells);
  const blockFill = new Uint32Array(cells);
  const ranges = new Uint32Array(2 * cells);
  for (let c = 0; c < cells; c++) {
    fill[c] = at;
    ranges[2 * c] = at;
    at += PG_ENTRY * (counts[c] as number);
    ranges[2 * c + 1] = at;
    blockFill[c] = at;
    at += homeInts[c] as number;
  }
  const g = new Int32Array(at);
  g.set(page.frame, 0);
  g[4] = side;
  g[5] = shift;
  g.set(ranges, PG_HEAD);
  for (let i = 0; i < n; i++) {
    const p = 4 * (posOf[i] as number);
    const home = homeCell(boxes, p, shift, side);
    const block = blockFill[home] as number;
    const r = rings[i];
    g[block] = i;
    g[block + 1] = r ? block + 2 + 2 * (r[1] - r[0]) : NOT_SIMPLE;
    let v = block + 2;
    if (r) for (let k = 2 * r[0]; k < 2 * r[1]; k++) g[v++] = fixedOf(page.coords[k] as number) as number;
    blockFill[home] = v;
    const bx = (boxes[p] as number) | ((boxes[p + 2] as number) << 16);
    const by = (boxes[p + 1] as number) | ((boxes[p + 3] as number) << 16);
    for (let cy = (boxes[p + 1] as number) >> shift; cy <= (boxes[p + 3] as number) >> shift; cy++)
      for (let cx = (boxes[p] as number) >> shift; cx <= (boxes[p + 2] as number) >> shift; cx++) {
        const c = cy * side + cx;
        const e = fill[c] as number;
        fill[c] = e + PG_ENTRY;
        g[e] = bx;
        g[e + 1] = by;
        g[e + 2] = block;
      }
  }
  page.grid = g;
  return g.byteLength + 64;
}

/**
 * The lowest feature of the page whose polygon holds the point (even-odd, holes excluded), or -1; through the
 * page's grid when ensurePageGrid has built it, else its flatbush.
 */
export function lotInPage(page: DecodedPage, lon: number, lat: number): number {
  const g = page.grid;
  if (g) return lotInGrid(g, g, 0, page, lon, lat);
  const count = searchPageInto(page, lon, lat, lon, lat, found);
  let best = -1;
  for (let k = 0; k < count; k++) {
    const i = found[k] as number;
    if ((best < 0 || i < best) && pointInFeature(page, i, lon, lat)) best = i;
  }
  return best;
}

/** The ints of a point grid's header (its page frame, cells per side and cell shift), which lotInGrid reads. */
export const GRID_HEAD_INTS = PG_HEAD;

/**
 * lotInPage through the page's point grid `g` (page.grid), for a caller already holding it; the grid's header is
 * read from `head` at `h` (the grid itself, at 0, or a caller's copy kept beside its other pages' headers).
 */
export function lotInGrid(
  g: PageGrid,
  head: Int32Array,
  h: number,
  page: DecodedPage,
  lon: number,
  lat: number,
): number {
  const x0 = head[h] as number;
  const y0 = head[h + 1] as number;
  const x1 = head[h + 2] as number;
  const y1 = head[h + 3] as number;
  const tx = lon * UNITS_PER_DEGREE;
  const ty = lat * UNITS_PER_DEGREE;
  const qw = Math.floor(tx);
  const qs = Math.floor(ty);
  const qe = Math.ceil(tx);
  const qn = Math.ceil(ty);
  if (!(qe >= x0 && qw <= x1 && qn >= y0 && qs <= y1)) return -1;
  const sx = Math.max(1, x1 - x0);
  const sy = Math.max(1, y1 - y0);
  // The point on the page's u16 grid, rounded outward as every box is: a box that misses it cannot hold the point.
  const gxl = gridLo(qw, x0, sx);
  const gyl = gridLo(qs, y0, sy);
  const gxh = gridHi(qe, x0, sx);
  const gyh = gridHi(qn, y0, sy);
  const side = head[h + 4] as number;
  const shift = head[h + 5] as number;
  let best = -1;
  for (let cy = gyl >> shift; cy <= gyh >> shift; cy++) {
    for (let cx = gxl >> shift; cx <= gxh >> shift; cx++) {
      const c = PG_HEAD + 2 * (cy * side + cx);
      const end = g[c + 1] as number;
      for (let e = g[c] as number; e < end; e += PG_ENTRY) {
        const bx = g[e] as number;
        const by = g[e + 1] as number;
        if (gxh < (bx & 0xffff) || gxl > bx >>> 16 || gyh < (by & 0xffff) || gyl > by >>> 16) continue;
        const block = g[e + 2] as number;
        const i = g[block] as number;
        // Ids ascend within a cell: past the best found so far (in an earlier cell), none can be lower.
        if (best >= 0 && i >= best) break;
        const vEnd = g[block + 1] as number;
        const inside =
          vEnd === NOT_SIMPLE
            ? pointInFeature(page, i, lon, lat)
            : pointInFixedRing(g, block + 2, vEnd, UNITS_PER_DEGREE, lon, lat);
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
  return sealPage(out);
}

// Each leaf of the page's index names a distinct feature below n: lookups index the page's arrays with them.
function checkLeafIds(index: Flatbush, n: number): void {
  const seen = new Uint8Array(n);
  const ids = leafIds(index);
  for (let pos = 0; pos < n; pos++) {
    const id = ids[pos] as number;
    if (!(id < n) || seen[id] === 1) throw new RangeError(`index leaf ${pos} names feature ${id}`);
    seen[id] = 1;
  }
}

// A page's frame, header and section table checked (a damaged page throws PageRefusedError, naming it).
function pageHead(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  columns: readonly ColumnSpec[],
  key: string,
  count?: number,
) {
  const refuse = (why: string): PageRefusedError =>
    new PageRefusedError(key, `pack ${key} page ${no} refused: ${why}`, no);
  const fault = frameFault(b, PAGE_HEADER_BYTES, expectedCrc);
  if (fault) throw refuse(fault);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const magic = String.fromCharCode(b[0] as number, b[1] as number, b[2] as number, b[3] as number);
  if (magic !== PAGE_MAGIC) throw refuse(`magic "${magic}", expected "${PAGE_MAGIC}"`);
  if (v.getUint32(8, true) !== no) throw refuse(`it says it is page ${v.getUint32(8, true)}`);
  const n = v.getUint32(12, true);
  if (count !== undefined && n !== count) throw refuse(`it holds ${n} features, the root says ${count}`);
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
  return { n, read, frame, sec, refuse };
}

/** A data page's attribute columns named in `names` alone, checked whole but with no geometry or index decoded. */
export type PageColumns = { no: number; count: number; frame: Int32Array; columns: (PageColumn | undefined)[] };

/** Page `no`'s columns of `names` (others undefined): for readers of a few lots' facts, never of their outlines. */
export function decodePageColumns(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  columns: readonly ColumnSpec[],
  key: string,
  names: ReadonlySet<string>,
  count?: number,
): PageColumns {
  const { n, read, frame, sec, refuse } = pageHead(b, no, expectedCrc, columns, key, count);
  try {
    const cols = columns.map((spec, c) => {
      if (!names.has(spec.name)) return undefined;
      const [co, cl] = sec(2 + c);
      return read(spec, b, co, cl, n);
    });
    return { no, count: n, frame, columns: cols };
  } catch (e) {
    if (e instanceof PageRefusedError) throw e;
    throw refuse(e instanceof Error ? e.message : String(e));
  }
}

/**
 * Verifies then decodes page `no`; any failure refuses this page alone, naming it. `count`, when given, is the
 * feature count the root promises for it (what a search's budget was judged from).
 */
export function decodePage(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  columns: readonly ColumnSpec[],
  key: string,
  count?: number,
): DecodedPage {
  const { n, read, frame, sec, refuse } = pageHead(b, no, expectedCrc, columns, key, count);
  try {
    const [io, il] = sec(0);
    const index = Flatbush.from(b.slice(io, io + il).buffer);
    if (index.numItems !== n) throw new RangeError(`index holds ${index.numItems} items, page ${n}`);
    checkLeafIds(index, n);

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
      else if (col.kind === "json") bytes += col.bytes + 8 * n;
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

/** The value of column `c` for feature `i`, nulls restored and fixed-point scaled back (a json column's as its text). */
export function pageValue(page: DecodedPage, c: number, i: number): Value {
  const col = page.columns[c];
  if (!col) return null;
  if (col.kind === "text") return col.values[i] ?? null;
  if (col.kind === "json") {
    const v = col.values[i];
    return v === null || v === undefined ? null : JSON.stringify(v);
  }
  if (col.kind === "dict") {
    const code = col.codes[i] as number;
    return code === 0 ? null : (col.dict[code - 1] ?? null);
  }
  const raw = col.values[i] as number;
  if (Number.isNaN(raw) || raw === col.nullValue) return null;
  return col.scale === 1 ? raw : raw / col.scale;
}

/** Feature `i`'s property from column `c`: pageValue, a json column's value parsed (as the feature had it). */
export function pageProp(page: DecodedPage, c: number, i: number): unknown {
  const col = page.columns[c];
  return col?.kind === "json" ? (col.values[i] ?? null) : pageValue(page, c, i);
}
