// Builds a pack's search sidecar from its pages: each page's facts table (as the search reads it), so the sidecar's
// values are the very float32s and codes the page path tests, and both paths give the same answers.
import { type PagedPack, ReadBudget, readPlan, type Snapshot } from "../../packs/paged/index.ts";
import { type FactsTable, tableFromPage } from "../facts-table.ts";
import { ordinalOf } from "../order.ts";
import { type ValueColumns, valueColumnsOfPage } from "../value-figures.ts";
import { bitsFor, packBits, sortableBits } from "./bits.ts";
import {
  BITS,
  BLOCK_ROWS,
  type BlockEntry,
  COLUMNS,
  type ColumnCode,
  FIRST_VALUE_COLUMN,
  FLOAT_COLUMNS,
  INT,
  packIdentity,
  pageOfRow,
  SCALED,
  SIDECAR_MAGIC,
  SPARSE,
  SIDECAR_VERSION,
  type SidecarHead,
  SORT_COLUMNS,
} from "./format.ts";

// Pages decoded at once while building: a few MiB of pages in hand.
const PAGES_A_READ = 32;
// 1e7: a label point's offset on the pack's grid.
const SCALES = [1, 10, 100, 1000, 10000, 1e7];
const CODED = ["zone", "suburb", "lga"] as const;

type Dict = { names: string[]; codes: Map<string, number> };

function codeIn(d: Dict, name: string | null | undefined): number {
  if (name === null || name === undefined) return 0;
  let k = d.codes.get(name);
  if (k === undefined) {
    d.names.push(name);
    k = d.names.length;
    d.codes.set(name, k);
  }
  return k;
}

// The smallest scale at which every value is an int whose float32 is the value, or null (then its bits are kept).
function scaleOf(values: Float64Array): number | null {
  for (const s of SCALES) {
    let ok = true;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      const q = Math.round(v * s);
      if (Math.abs(q) > 2 ** 31 || Math.fround(q / s) !== v) {
        ok = false;
        break;
      }
    }
    if (ok) return s;
  }
  return null;
}

// One column of one block: its coding and packed words.
function codeColumn(values: Float64Array, float: boolean): { code: ColumnCode; words: Uint32Array } {
  let kind = INT;
  let scale = 1;
  let ints = values;
  if (float) {
    const s = scaleOf(values);
    kind = s === null ? BITS : SCALED;
    scale = s ?? 1;
    ints = values.map((v) => (Number.isNaN(v) ? Number.NaN : s === null ? sortableBits(v) : Math.round(v * scale)));
  }
  let lo = Infinity;
  let hi = -Infinity;
  let none = 0;
  for (const q of ints) {
    if (Number.isNaN(q)) none = 1;
    else {
      if (q < lo) lo = q;
      if (q > hi) hi = q;
    }
  }
  if (lo > hi) lo = hi = 0;
  const zeros = ints.reduce((n, q) => (q === 0 ? n + 1 : n), 0);
  // Shares and kinds are zero on most lots: a bit a lot, and bits only for the rest.
  if (!float && none === 0 && zeros * 2 >= ints.length && hi > 0) return sparse(ints);
  const range = hi - lo + none;
  if (range > 0xffffffff) throw new Error(`search sidecar: a block's column spans ${range} codes, more than 32 bits`);
  const width = bitsFor(range);
  const noneCode = width === 32 ? 0xffffffff : 2 ** width - 1;
  const raw = Uint32Array.from(ints, (q) => (Number.isNaN(q) ? noneCode : q - lo));
  return { code: [kind, scale, lo, width, none], words: packBits(raw, width) };
}

function sparse(ints: Float64Array): { code: ColumnCode; words: Uint32Array } {
  const n = ints.length;
  const map = new Uint32Array(Math.ceil(n / 32));
  const values: number[] = [];
  let lo = Infinity;
  let hi = -Infinity;
  ints.forEach((q, i) => {
    if (q === 0) return;
    map[i >>> 5] = (map[i >>> 5] as number) | (1 << (i & 31));
    values.push(q);
    if (q < lo) lo = q;
    if (q > hi) hi = q;
  });
  const width = bitsFor(hi - lo);
  const packed = packBits(
    values.map((q) => q - lo),
    width,
  );
  const words = new Uint32Array(map.length + packed.length);
  words.set(map);
  words.set(packed, map.length);
  return { code: [SPARSE, values.length, lo, width, 0], words };
}

/** The pack's lots in its page order, every facts column as numbers (NaN for none) and codes pack-wide. */
type Gathered = { cols: Float64Array[]; keys: string[]; dicts: Record<(typeof CODED)[number], Dict> };

function gatherPage(g: Gathered, t: FactsTable, v: ValueColumns, page: number, row: number): void {
  const at = (name: string) => g.cols[COLUMNS.indexOf(name as (typeof COLUMNS)[number])] as Float64Array;
  for (let i = 0; i < t.count; i++) {
    const r = row + i;
    at("area")[r] = t.area[i] as number;
    at("fsr")[r] = t.fsr[i] as number;
    at("height")[r] = t.height[i] as number;
    at("minLot")[r] = t.minLot[i] as number;
    at("stationM")[r] = t.stationM[i] as number;
    at("x")[r] = t.x[i] as number;
    at("y")[r] = t.y[i] as number;
    at("flood")[r] = t.flood[i] as number;
    at("bushfire")[r] = t.bushfire[i] as number;
    at("heritage")[r] = t.heritage[i] as number;
    at("heritageKind")[r] = t.heritageKind[i] as number;
    for (const name of CODED) at(name)[r] = codeIn(g.dicts[name], t[name].names[t[name].codes[i] as number]);
    g.keys[r] = t.lotId[i] ?? `#${ordinalOf(page, i)}`;
    at("row")[r] = r;
    at("basis")[r] = v.basis[i] as number;
    at("dwellings")[r] = v.dwellings[i] as number;
    at("gfa")[r] = v.gfa[i] as number;
    at("existingKind")[r] = v.existingKind[i] as number;
    at("existingDwellings")[r] = v.existingDwellings[i] as number;
    at("existingUnits")[r] = v.existingUnits[i] as number;
    at("existingFloor")[r] = v.existingFloor[i] as number;
  }
}

/** The sidecar of this pack version, read page by page from the pack. */
export async function buildSidecar(pack: PagedPack, snap?: Snapshot): Promise<Uint8Array> {
  const s = snap ?? (await pack.snapshot());
  const root = s.root;
  const pageStarts = [0];
  for (let p = 0; p < root.pageCount; p++) pageStarts.push((pageStarts[p] as number) + (root.pageCounts[p] as number));
  const rows = pageStarts[root.pageCount] as number;
  const g: Gathered = {
    cols: COLUMNS.map(() => new Float64Array(rows)),
    keys: new Array<string>(rows),
    dicts: {
      zone: { names: [], codes: new Map() },
      suburb: { names: [], codes: new Map() },
      lga: { names: [], codes: new Map() },
    },
  };
  const frames = new Array<number>(root.pageCount * 2).fill(0);
  for (let from = 0; from < root.pageCount; from += PAGES_A_READ) {
    const nos = Array.from({ length: Math.min(PAGES_A_READ, root.pageCount - from) }, (_, k) => from + k);
    const set = await readPlan(pack.planPages(s, nos, new ReadBudget()));
    if (set.refused.length > 0) throw new Error(`search sidecar: page ${set.refused[0]?.page} of ${s.key} is damaged`);
    for (const page of set.pages) {
      const t = tableFromPage(s, page);
      frames[page.no * 2] = t.x0;
      frames[page.no * 2 + 1] = t.y0;
      // Each lot scored as a score of it would be: the figures its value rests on, whatever the prices.
      gatherPage(g, t, valueColumnsOfPage(s, page), page.no, pageStarts[page.no] as number);
    }
  }
  // A lot's rank in (lot key, ordinal) order: the order's tie-break without holding lot ids (page order is ordinal order).
  const byKey = Array.from({ length: rows }, (_, r) => r);
  byKey.sort((a, b) => {
    const ka = g.keys[a] as string;
    const kb = g.keys[b] as string;
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
  const rank = g.cols[COLUMNS.indexOf("rank")] as Float64Array;
  byKey.forEach((r, k) => {
    rank[r] = k;
  });
  g.keys.length = 0;
  sortByZone(g);
  const packRow = g.cols[COLUMNS.indexOf("row")] as Float64Array;

  const blocks: BlockEntry[] = [];
  const parts: Uint8Array[] = [];
  const valueParts: Uint8Array[] = [];
  let offset = 0;
  let valueOffset = 0;
  for (let first = 0; first < rows; first += BLOCK_ROWS) {
    const n = Math.min(BLOCK_ROWS, rows - first);
    const codes: ColumnCode[] = [];
    const lo: (number | null)[] = [];
    const hi: (number | null)[] = [];
    const words: Uint32Array[] = [];
    const valueWords: Uint32Array[] = [];
    COLUMNS.forEach((name, c) => {
      const values = (g.cols[c] as Float64Array).subarray(first, first + n);
      const coded = codeColumn(values, FLOAT_COLUMNS.includes(name));
      codes.push(coded.code);
      (c < FIRST_VALUE_COLUMN ? words : valueWords).push(coded.words);
      let a = Infinity;
      let b = -Infinity;
      for (const v of values) {
        if (v < a) a = v;
        if (v > b) b = v;
      }
      lo.push(a <= b ? a : null);
      hi.push(a <= b ? b : null);
    });
    const block = joinWords(words);
    const valueBlock = joinWords(valueWords);
    const present = (name: string) => {
      const values = (g.cols[COLUMNS.indexOf(name as (typeof COLUMNS)[number])] as Float64Array).subarray(
        first,
        first + n,
      );
      return [...new Set(values)].filter((k) => k !== 0).sort((x, y) => x - y);
    };
    // The lots' label points' box, as the search places them: the page's origin plus the float32 offset.
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    const pages: number[] = [];
    for (let r = first; r < first + n; r++) {
      const page = pageOfRow(pageStarts, packRow[r] as number);
      // Rows of one zone go up in pack order: a page is the last run's last, the next one, or starts a run.
      const last = pages.length - 2;
      const end = last >= 0 ? (pages[last] as number) + (pages[last + 1] as number) : -1;
      if (page === end) pages[last + 1] = (pages[last + 1] as number) + 1;
      else if (page !== end - 1) pages.push(page, 1);
      const x = (frames[page * 2] as number) + ((g.cols[COLUMNS.indexOf("x")] as Float64Array)[r] as number);
      const y = (frames[page * 2 + 1] as number) + ((g.cols[COLUMNS.indexOf("y")] as Float64Array)[r] as number);
      if (x < box[0]) box[0] = x;
      if (y < box[1]) box[1] = y;
      if (x > box[2]) box[2] = x;
      if (y > box[3]) box[3] = y;
    }
    blocks.push({
      o: offset,
      n: block.length,
      vo: valueOffset,
      vn: valueBlock.length,
      first,
      rows: n,
      pages: mergedRuns(pages),
      c: codes,
      lo,
      hi,
      zones: present("zone"),
      zoneNear: nearestByZone(g, present("zone"), first, n),
      suburbs: present("suburb"),
      lgas: present("lga"),
      box,
      best: SORT_COLUMNS.map((name) => bestLot(g, name, first, n)),
    });
    parts.push(block);
    offset += block.length;
    valueParts.push(valueBlock);
    valueOffset += valueBlock.length;
  }
  // The value figures' region follows the blocks: their offsets become offsets from the blocks' start.
  for (const b of blocks) b.vo += offset;
  const head: SidecarHead = {
    v: SIDECAR_VERSION,
    packId: root.meta.id,
    identity: packIdentity(root),
    rows,
    pageStarts,
    frames,
    dicts: {
      zone: g.dicts.zone.names,
      suburb: g.dicts.suburb.names,
      lga: g.dicts.lga.names,
    },
    columns: [...COLUMNS],
    blocks,
  };
  // Block offsets are from the start of the blocks, which follow the head padded to 8 bytes.
  const json = new TextEncoder().encode(JSON.stringify(head));
  const start = Math.ceil((8 + json.length) / 8) * 8;
  const out = new Uint8Array(start + offset + valueOffset);
  const v = new DataView(out.buffer);
  v.setUint32(0, SIDECAR_MAGIC, true);
  v.setUint32(4, json.length, true);
  out.set(json, 8);
  let at = start;
  for (const p of [...parts, ...valueParts]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The first lot of rows [first, first + n) in the order of a sort by `name` (order.ts): value, none last, then rank. */
function bestLot(g: Gathered, name: (typeof SORT_COLUMNS)[number], first: number, n: number): [number | null, number] {
  const values = g.cols[COLUMNS.indexOf(name)] as Float64Array;
  const ranks = g.cols[COLUMNS.indexOf("rank")] as Float64Array;
  const up = name === "stationM";
  let v = Number.NaN;
  let r = Infinity;
  const before = (x: number, k: number) => {
    if (Number.isNaN(x)) return Number.isNaN(v) && k < r;
    if (Number.isNaN(v)) return true;
    if (x !== v) return up ? x < v : x > v;
    return k < r;
  };
  for (let i = first; i < first + n; i++) {
    const x = values[i] as number;
    const k = ranks[i] as number;
    if (before(x, k)) {
      v = x;
      r = k;
    }
  }
  return [Number.isNaN(v) ? null : v, r];
}

/** Per zone code of `codes`, the least station distance of its lots among rows [first, first + n), or null. */
function nearestByZone(g: Gathered, codes: number[], first: number, n: number): (number | null)[] {
  const zone = g.cols[COLUMNS.indexOf("zone")] as Float64Array;
  const station = g.cols[COLUMNS.indexOf("stationM")] as Float64Array;
  const least = new Map<number, number>();
  for (let i = first; i < first + n; i++) {
    const m = station[i] as number;
    const k = zone[i] as number;
    if (!Number.isNaN(m) && m < (least.get(k) ?? Infinity)) least.set(k, m);
  }
  return codes.map((k) => least.get(k) ?? null);
}

/**
 * Puts the lots in the sidecar's order (docs/design.md section 10): by main zone (by code name, no zone last), then pack
 * order, so a search for some zones reads their runs of blocks and not every block holding one of their lots.
 */
function sortByZone(g: Gathered): void {
  const zone = g.cols[COLUMNS.indexOf("zone")] as Float64Array;
  const names = g.dicts.zone.names;
  // Each code's place: codes by name, then none (0).
  const byName = names
    .map((_, k) => k + 1)
    .sort((a, b) => ((names[a - 1] as string) < (names[b - 1] as string) ? -1 : 1));
  const place = new Uint32Array(names.length + 1);
  byName.forEach((k, j) => {
    place[k] = j;
  });
  place[0] = names.length;
  // A counting sort: stable, so pack order holds within a zone.
  const starts = new Uint32Array(names.length + 2);
  for (const k of zone) {
    const j = (place[k] as number) + 1;
    starts[j] = (starts[j] as number) + 1;
  }
  for (let j = 1; j < starts.length; j++) starts[j] = (starts[j] as number) + (starts[j - 1] as number);
  const order = new Uint32Array(zone.length);
  zone.forEach((k, r) => {
    const j = place[k] as number;
    const at = starts[j] as number;
    order[at] = r;
    starts[j] = at + 1;
  });
  // A column at a time, so the build holds one column twice at most (40 MB at 5M lots), not every column.
  g.cols.forEach((values, c) => {
    const out = new Float64Array(values.length);
    for (let r = 0; r < out.length; r++) out[r] = values[order[r] as number] as number;
    g.cols[c] = out;
  });
}

/** Runs of pages [first, pages, ...] with any run that starts where another ends (or within it) joined, in page order. */
function mergedRuns(runs: number[]): number[] {
  const pairs: [number, number][] = [];
  for (let k = 0; k < runs.length; k += 2)
    pairs.push([runs[k] as number, (runs[k] as number) + (runs[k + 1] as number)]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [from, to] of pairs) {
    const last = out.length - 2;
    const end = last >= 0 ? (out[last] as number) + (out[last + 1] as number) : -1;
    if (last >= 0 && from <= end) out[last + 1] = Math.max(end, to) - (out[last] as number);
    else out.push(from, to - from);
  }
  return out;
}

/** Columns' words end to end. */
function joinWords(words: readonly Uint32Array[]): Uint8Array {
  const out = new Uint8Array(words.reduce((n, w) => n + w.byteLength, 0));
  let at = 0;
  for (const w of words) {
    out.set(new Uint8Array(w.buffer, w.byteOffset, w.byteLength), at);
    at += w.byteLength;
  }
  return out;
}
