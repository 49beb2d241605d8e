// Block overview pages: a lots pack that knows its street blocks (the synthetic world) stores one quad per block in
// the zone over most of its land, in place of the grid cells of overview.ts, so low zooms draw blocks with the streets
// between them. Pages of up to BLOCKS_PER_PAGE blocks in Hilbert order, each read by its box like a cell page.
import type { Columns } from "../../geo/types.ts";
import { ByteReader, ByteWriter } from "./bytes.ts";
import { PageRefusedError } from "./errors.ts";
import { frameFault, pageCrc, sealPage } from "./page-frame.ts";
import { hilbertOf } from "./hilbert.ts";
import { CELLS_PER_DEGREE, type OverviewEntry, type OverviewMeta } from "./overview.ts";
import { UNITS_PER_DEGREE } from "./schema.ts";

export const BLOCKS_MAGIC = "GAPB";
export const BLOCKS_PER_PAGE = 2048;

/** The blocks a builder gives: 8 integers a block (its corners, 1e-7 degree, in ring order) and each block's zone. */
export type Blocks = { quads: Int32Array; zones: readonly string[] };

/** A decoded block page: each block one polygon of one ring of four corners (degrees), and its zone's code. */
export type BlockPage = { no: number; count: number; geometry: Columns; zones: Uint16Array; bytes: number };

/** The blocks cut into pages in Hilbert order of their centres, with their root entries; `code` numbers a zone. */
export function blockOverview(
  blocks: Blocks,
  code: (zone: string) => number,
): { pages: Uint8Array[]; meta: OverviewMeta } {
  const n = blocks.zones.length;
  if (blocks.quads.length !== 8 * n) throw new RangeError(`${blocks.quads.length / 8} quads for ${n} zones`);
  const q = blocks.quads;
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const centres = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = 0; k < 8; k += 2) {
      x0 = Math.min(x0, q[8 * i + k] as number);
      x1 = Math.max(x1, q[8 * i + k] as number);
      y0 = Math.min(y0, q[8 * i + k + 1] as number);
      y1 = Math.max(y1, q[8 * i + k + 1] as number);
    }
    centres[2 * i] = (x0 + x1) / 2 / UNITS_PER_DEGREE;
    centres[2 * i + 1] = (y0 + y1) / 2 / UNITS_PER_DEGREE;
    box[0] = Math.min(box[0], x0);
    box[1] = Math.min(box[1], y0);
    box[2] = Math.max(box[2], x1);
    box[3] = Math.max(box[3], y1);
  }
  const degBox = box.map((v) => v / UNITS_PER_DEGREE) as [number, number, number, number];
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = hilbertOf(centres[2 * i] as number, centres[2 * i + 1] as number, degBox);
  // Ties keep the builder's order, so the same blocks give the same bytes.
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (keys[a] as number) - (keys[b] as number) || a - b,
  );
  const pages: Uint8Array[] = [];
  const entries: OverviewEntry[] = [];
  for (let start = 0; start < n; start += BLOCKS_PER_PAGE) {
    const ids = order.slice(start, start + BLOCKS_PER_PAGE);
    const bytes = encodeBlockPage(pages.length, ids, q, (i) => code(blocks.zones[i] as string));
    let [w, s, e, nn] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const i of ids) {
      for (let k = 0; k < 8; k += 2) {
        w = Math.min(w, q[8 * i + k] as number);
        e = Math.max(e, q[8 * i + k] as number);
        s = Math.min(s, q[8 * i + k + 1] as number);
        nn = Math.max(nn, q[8 * i + k + 1] as number);
      }
    }
    const deg = (v: number) => v / UNITS_PER_DEGREE;
    entries.push({ box: [deg(w), deg(s), deg(e), deg(nn)], length: bytes.length, crc: pageCrc(bytes) });
    pages.push(bytes);
  }
  return { pages, meta: { cellsPerDegree: CELLS_PER_DEGREE, kind: "blocks", pages: entries } };
}

// Layout: magic, crc32 over [8, end), page number, block count, the page's south-west corner (i32 x, y), then per block
// a varint zone and its four corners as zigzag varint deltas from the corner before (the first from the page's
// corner, so every delta stays within the page's span); padded to 8.
const HEAD = 24;
function encodeBlockPage(no: number, ids: readonly number[], q: Int32Array, zone: (i: number) => number): Uint8Array {
  let px = Infinity;
  let py = Infinity;
  for (const i of ids) {
    for (let k = 0; k < 8; k += 2) {
      px = Math.min(px, q[8 * i + k] as number);
      py = Math.min(py, q[8 * i + k + 1] as number);
    }
  }
  const w = new ByteWriter(HEAD + ids.length * 24);
  for (let i = 0; i < 4; i++) w.u8(BLOCKS_MAGIC.charCodeAt(i));
  w.u32(0);
  w.u32(no);
  w.u32(ids.length);
  w.u32(px >>> 0);
  w.u32(py >>> 0);
  for (const i of ids) {
    w.varint(zone(i));
    for (let k = 0; k < 8; k += 2) {
      const x = q[8 * i + k] as number;
      const y = q[8 * i + k + 1] as number;
      w.zigzag(x - px);
      w.zigzag(y - py);
      px = x;
      py = y;
    }
  }
  w.align(8);
  const out = w.finish();
  return sealPage(out);
}

/** Verifies and decodes block page `no` (its zones numbering `zoneCount` names); a damaged one is refused alone. */
export function decodeBlockPage(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  key: string,
  zoneCount: number,
): BlockPage {
  const refuse = (why: string) => new PageRefusedError(key, `pack ${key} block page ${no} refused: ${why}`, no);
  const fault = frameFault(b, HEAD, expectedCrc);
  if (fault) throw refuse(fault);
  const magic = String.fromCharCode(b[0] as number, b[1] as number, b[2] as number, b[3] as number);
  if (magic !== BLOCKS_MAGIC) throw refuse(`magic ${JSON.stringify(magic)}, not ${BLOCKS_MAGIC}`);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = v.getUint32(12, true);
  // A block takes at least 9 bytes (nine varints): a count the page cannot hold is refused before it is allocated.
  if (n > (b.length - HEAD) / 9) throw refuse(`${n} blocks cannot fit ${b.length - HEAD} bytes`);
  const r = new ByteReader(b, HEAD);
  const coords = new Float64Array(8 * n);
  const zones = new Uint16Array(n);
  let px = v.getInt32(16, true);
  let py = v.getInt32(20, true);
  try {
    for (let i = 0; i < n; i++) {
      const zone = r.varint();
      if (zone >= zoneCount) throw new RangeError(`block ${i} in zone ${zone} of ${zoneCount}`);
      zones[i] = zone;
      for (let k = 0; k < 8; k += 2) {
        px += r.zigzag();
        py += r.zigzag();
        coords[8 * i + k] = px / UNITS_PER_DEGREE;
        coords[8 * i + k + 1] = py / UNITS_PER_DEGREE;
      }
    }
  } catch (e) {
    throw refuse(e instanceof Error ? e.message : String(e));
  }
  const ringOffsets = Uint32Array.from({ length: n + 1 }, (_, i) => 4 * i);
  const polyOffsets = Uint32Array.from({ length: n + 1 }, (_, i) => i);
  const featureOffsets = Uint32Array.from({ length: n + 1 }, (_, i) => i);
  const geometry = { coords, ringOffsets, polyOffsets, featureOffsets };
  return { no, count: n, geometry, zones, bytes: 64 * n + 12 * (n + 1) + 2 * n + 64 };
}
