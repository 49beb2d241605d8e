// Overview pages: each lot's zone generalised to a grid of 1/1024-degree cells (about 90 x 110 m at Sydney), the
// zone over most lots of a cell kept, stored as runs per row in blocks of 256 x 256 cells. Low zooms draw these.
import { ByteReader, ByteWriter } from "./bytes.ts";
import { CountTable, type KeyCounts } from "./count-table.ts";
import { PageRefusedError } from "./errors.ts";
import { frameFault, pageCrc, sealPage } from "./page-frame.ts";

export const OVERVIEW_MAGIC = "GAPO";
export const CELLS_PER_DEGREE = 1024;
export const BLOCK_CELLS = 256;
// Cell indices are offset so every cell on Earth is a non-negative integer below 2^20.
const OFFSET = 1 << 19;

export type OverviewEntry = { box: [number, number, number, number]; length: number; crc: number };
// `kind: "blocks"`: the pages hold street blocks (block-overview.ts), not runs of cells.
export type OverviewMeta = { cellsPerDegree: number; kind?: "blocks"; pages: OverviewEntry[] };
// One run: cells [x0, x0 + n) of row y, all of zone `zone` (an index into the root's zoneDict).
export type OverviewPage = {
  no: number;
  xs: Int32Array;
  ys: Int32Array;
  ns: Uint16Array;
  zones: Uint16Array;
  bytes: number;
};

const cellOf = (deg: number): number => Math.floor(deg * CELLS_PER_DEGREE) + OFFSET;

/** Counts each cell's lots by zone as the writer sees them, then cuts the blocks into pages. */
export class OverviewBuilder {
  // Key (block * 2^16 + cell in block) * 2^12 + zone, value the lots counted: keys in order are block order with each
  // cell's zones together, so the pages are cut in one pass over the sorted counts. Typed by default (a Map grew).
  private readonly counts: KeyCounts;

  // `counts` holds the counts (default: a table in memory); the streamed build gives one that spills to disk.
  constructor(counts: KeyCounts = new CountTable()) {
    this.counts = counts;
  }

  add(lon: number, lat: number, zone: number): void {
    const x = cellOf(lon);
    const y = cellOf(lat);
    const block = Math.floor(y / BLOCK_CELLS) * 2 ** 12 + Math.floor(x / BLOCK_CELLS);
    const inBlock = (y % BLOCK_CELLS) * BLOCK_CELLS + (x % BLOCK_CELLS);
    this.counts.add((block * 2 ** 16 + inBlock) * 4096 + (zone & 4095));
  }

  /** The pages in block order (south to north, west to east) with their root entries. */
  finish(): { pages: Uint8Array[]; meta: OverviewMeta } {
    const pages: Uint8Array[] = [];
    const entries: OverviewEntry[] = [];
    let cells: { x: number; y: number; zone: number }[] = [];
    let block = -1;
    const endBlock = () => {
      if (cells.length === 0) return;
      const bytes = encodeOverviewPage(pages.length, cells);
      let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const c of cells) {
        w = Math.min(w, c.x);
        s = Math.min(s, c.y);
        e = Math.max(e, c.x + 1);
        n = Math.max(n, c.y + 1);
      }
      const deg = (v: number) => (v - OFFSET) / CELLS_PER_DEGREE;
      entries.push({ box: [deg(w), deg(s), deg(e), deg(n)], length: bytes.length, crc: pageCrc(bytes) });
      pages.push(bytes);
      cells = [];
    };
    // The cell being counted: the zone of most lots in it (ties: the lower zone code, which comes first).
    let cell = -1;
    let bestZone = 0;
    let bestN = 0;
    const endCell = () => {
      if (cell < 0) return;
      const b = Math.floor(cell / 2 ** 16);
      if (b !== block) {
        endBlock();
        block = b;
      }
      const inBlock = cell % 2 ** 16;
      const bx = b % 2 ** 12;
      const by = Math.floor(b / 2 ** 12);
      cells.push({
        x: bx * BLOCK_CELLS + (inBlock % BLOCK_CELLS),
        y: by * BLOCK_CELLS + Math.floor(inBlock / BLOCK_CELLS),
        zone: bestZone,
      });
    };
    this.counts.sorted((key, n) => {
      const c = Math.floor(key / 4096);
      if (c !== cell) {
        endCell();
        cell = c;
        bestZone = key % 4096;
        bestN = n;
      } else if (n > bestN) {
        bestZone = key % 4096;
        bestN = n;
      }
    });
    endCell();
    endBlock();
    return { pages, meta: { cellsPerDegree: CELLS_PER_DEGREE, pages: entries } };
  }
}

// Layout: magic, crc32 over [8, end), page number, run count, then per run varints x, y (deltas), n, zone; padded to 8.
function encodeOverviewPage(no: number, cells: readonly { x: number; y: number; zone: number }[]): Uint8Array {
  const runs: { x: number; y: number; n: number; zone: number }[] = [];
  for (const c of cells) {
    const last = runs[runs.length - 1];
    if (last && last.y === c.y && last.zone === c.zone && last.x + last.n === c.x && last.n < 0xffff) last.n++;
    else runs.push({ x: c.x, y: c.y, n: 1, zone: c.zone });
  }
  const w = new ByteWriter(16 + runs.length * 6);
  for (let i = 0; i < 4; i++) w.u8(OVERVIEW_MAGIC.charCodeAt(i));
  w.u32(0);
  w.u32(no);
  w.u32(runs.length);
  let px = 0;
  let py = 0;
  for (const r of runs) {
    w.zigzag(r.x - px);
    w.zigzag(r.y - py);
    w.varint(r.n);
    w.varint(r.zone);
    px = r.x;
    py = r.y;
  }
  w.align(8);
  const out = w.finish();
  return sealPage(out);
}

/** Verifies and decodes overview page `no` (its zones numbering `zoneCount` names); a damaged one is refused alone. */
export function decodeOverviewPage(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  key: string,
  zoneCount: number,
): OverviewPage {
  const refuse = (why: string) => new PageRefusedError(key, `pack ${key} overview page ${no} refused: ${why}`, no);
  const fault = frameFault(b, 16, expectedCrc);
  if (fault) throw refuse(fault);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const k = v.getUint32(12, true);
  // A run takes at least 4 bytes (four varints): a count the page cannot hold is refused before it is allocated.
  if (k > (b.length - 16) / 4) throw refuse(`${k} runs cannot fit ${b.length - 16} bytes`);
  const r = new ByteReader(b, 16);
  const xs = new Int32Array(k);
  const ys = new Int32Array(k);
  const ns = new Uint16Array(k);
  const zones = new Uint16Array(k);
  let px = 0;
  let py = 0;
  try {
    for (let i = 0; i < k; i++) {
      px += r.zigzag();
      py += r.zigzag();
      xs[i] = px - OFFSET;
      ys[i] = py - OFFSET;
      const n = r.varint();
      const zone = r.varint();
      if (n > 0xffff || zone >= zoneCount)
        throw new RangeError(`run ${i} of ${n} cells in zone ${zone} of ${zoneCount}`);
      ns[i] = n;
      zones[i] = zone;
    }
  } catch (e) {
    throw refuse(e instanceof Error ? e.message : String(e));
  }
  return { no, xs, ys, ns, zones, bytes: 12 * k + 64 };
}
