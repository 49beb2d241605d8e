// A search's sidecar plan: per pack, the blocks that may hold a match among the pages the page path would read, and
// the cursor's rank; null (search by pages) when any pack lacks a sidecar or the cursor's lot cannot be ranked.
import { type PagedPack, ReadBudget, readPlan, type Snapshot } from "../../packs/paged/index.ts";
import { refuseDamaged } from "../../packs/request-pages.ts";
import { FACT_COLUMNS, type FactsTable, tableFromPage } from "../facts-table.ts";
import { lotKey, PAGE_STRIDE, type Position } from "../order.ts";
import type { SearchFilters, SearchSort } from "../query.ts";
import type { ResolvedArea } from "../search-area.ts";
import { cachedPageTable } from "../tables.ts";
import { type BlockEntry, COLUMNS, col, type ColumnName, VALUE_COLUMNS } from "./format.ts";
import type { BlockTable, Need, Sidecar } from "./reader.ts";
import { sidecarFor } from "./registry.ts";
import { blockTest, wholeInArea } from "./skip.ts";

export type SidecarScan = {
  pack: PagedPack;
  s: Snapshot;
  sidecar: Sidecar;
  /** 1 for each page the page path would read (in the area's box, not skipped by the root's summaries). */
  pages: Uint8Array;
  /** The blocks read; `counted`: those whose lots are counted from their headers alone (src/search/sidecar/narrow.ts). */
  blocks: number[];
  counted: number[];
  /** Blocks wholly in the area none of whose lots passes: only their heads' areas join the area's range. */
  ranged: number[];
  need: Need;
};

/** The columns one search reads: a lot's place, area, rank and pack row always, then what its area, filters and sort test. */
export function needOf(area: ResolvedArea, f: SearchFilters, sort: SearchSort): Need {
  const need = new Set<ColumnName>(["area", "x", "y", "rank", "row"]);
  if (area.needs.named) need.add(area.needs.named.column);
  if (f.zones) need.add("zone");
  if (f.fsr_min !== undefined) need.add("fsr");
  if (f.height_min_m !== undefined) need.add("height");
  if (f.meets_min_lot) need.add("minLot");
  if (f.station_within_m !== undefined) need.add("stationM");
  for (const ex of f.exclude ?? []) {
    need.add(ex);
    if (ex === "heritage") need.add("heritageKind");
  }
  if (sort === "value") {
    // Priced per lot in its suburb on the caller's assumptions: the figures and the suburb, never a block's min/max.
    need.add("suburb");
    for (const name of VALUE_COLUMNS) need.add(name);
  } else need.add(sort === "station" ? "stationM" : sort);
  return { has: (name) => need.has(name), key: COLUMNS.map((c) => (need.has(c) ? "1" : "0")).join("") };
}

/**
 * Pages' facts tables, from the isolate's cache or read (a cursor's lot, the results'); `only`: the lots wanted.
 * `unplaced`: read their columns alone (no outlines, nothing cached), the wanted lots' label points left to the caller
 * (the pages listed in `placeless`).
 */
export async function pageTables(
  pack: PagedPack,
  s: Snapshot,
  nos: readonly number[],
  budget: ReadBudget,
  only?: ReadonlyMap<number, ReadonlySet<number>>,
  unplaced = false,
): Promise<{ tables: Map<number, FactsTable>; bytes: number; read: number; placeless: Set<number> }> {
  const tables = new Map<number, FactsTable>();
  const placeless = new Set<number>();
  const toRead: number[] = [];
  for (const no of new Set(nos)) {
    const t = cachedPageTable(s, no);
    if (t) tables.set(no, t);
    else toRead.push(no);
  }
  if (toRead.length === 0) return { tables, bytes: 0, read: 0, placeless };
  let plan = pack.planPages(s, toRead, budget);
  // The results' pages must be read for the answer: past the request's ranges, read them anyway rather than fail.
  if (plan.over !== null) plan = pack.planPages(s, toRead, new ReadBudget());
  const set = unplaced ? await pack.readColumns(plan, FACT_COLUMNS) : await readPlan(plan);
  refuseDamaged(set.refused);
  for (const page of set.pages) {
    tables.set(page.no, tableFromPage(s, page, only?.get(page.no)));
    if (!("coords" in page)) placeless.add(page.no);
  }
  return { tables, bytes: pack.measure(s, toRead).bytes, read: toRead.length, placeless };
}

/**
 * The block holding pack row `row` (a lot of zone `zone` on page `page`) and the lot's place in it: among the blocks
 * holding lots of that zone and page, the one whose pack rows span it (two at most, where the zone's run crosses
 * blocks), read alone when not cached.
 */
async function blockOfRow(
  sidecar: Sidecar,
  page: number,
  zone: string | null,
  row: number,
  need: Need,
): Promise<{ block: BlockTable; i: number } | null> {
  const code = zone === null ? 0 : sidecar.head.dicts.zone.indexOf(zone) + 1;
  const rowCol = col("row");
  for (const b of sidecar.blocksOfPages([page])) {
    const e = sidecar.head.blocks[b] as BlockEntry;
    if ((code > 0 && !e.zones.includes(code)) || (e.lo[rowCol] ?? Infinity) > row || (e.hi[rowCol] ?? -1) < row)
      continue;
    let block = sidecar.cached(b, need);
    if (!block) {
      const [take] = await sidecar.readRun([b], true, need);
      if (!take) throw new Error(`search sidecar ${sidecar.source.key}: block ${b} was not read`);
      block = take();
    }
    const i = block.row.indexOf(row);
    if (i >= 0) return { block, i };
  }
  return null;
}

/**
 * The cursor's rank within its pack: its ordinal names the lot (page and index), its key proves it is the same lot.
 * Null when it does not (a cursor from before ordinals, or of another version of the pack).
 */
async function cursorRank(scan: SidecarScan, after: Position): Promise<number | null> {
  const { pack, s, sidecar } = scan;
  const page = Math.floor(after.k / PAGE_STRIDE);
  const index = after.k % PAGE_STRIDE;
  if (page >= s.root.pageCount || index >= (s.root.pageCounts[page] as number)) return null;
  const { tables } = await pageTables(pack, s, [page], new ReadBudget(), new Map([[page, new Set([index])]]));
  const t = tables.get(page);
  if (!t || lotKey(t, index, after.k) !== after.l) return null;
  const row = (sidecar.head.pageStarts[page] as number) + index;
  const found = await blockOfRow(sidecar, page, t.zone.names[t.zone.codes[index] as number] ?? null, row, scan.need);
  return found ? (found.block.rank[found.i] as number) : null;
}

/** The sidecar scans of these packs' pages (`heads`: their heads read early), and the cursor's rank; null: by pages. */
export async function planSidecars(
  scans: readonly { pack: PagedPack; s: Snapshot; mayMatch: number[] }[],
  area: ResolvedArea,
  filters: SearchFilters,
  sort: SearchSort,
  byFilters: boolean,
  after: Position | null,
  heads?: ReadonlyMap<PagedPack, Promise<Sidecar | null>>,
): Promise<{ scans: SidecarScan[]; after: Position | null } | null> {
  const out: SidecarScan[] = [];
  for (const { pack, s, mayMatch } of scans) {
    const sidecar = await sidecarFor(pack, s, heads?.get(pack));
    if (!sidecar) return null;
    const pages = new Uint8Array(s.root.pageCount);
    for (const no of mayMatch) pages[no] = 1;
    const test = blockTest(sidecar.head, area, filters, byFilters);
    // Unskipped by filters (the area's range of lot sizes needs every lot in it), a block none of whose lots passes
    // them is still left unread when each of its lots is in the area: its head's areas give the range.
    const passes = byFilters ? null : blockTest(sidecar.head, area, filters, true);
    const whole = wholeInArea(sidecar.head, area, filters, pages);
    const blocks: number[] = [];
    const ranged: number[] = [];
    for (const b of sidecar.blocksOfPages(mayMatch)) {
      const e = sidecar.head.blocks[b];
      if (e === undefined || !test(e)) continue;
      if (passes && !passes(e) && whole(e)) ranged.push(b);
      else blocks.push(b);
    }
    out.push({
      pack,
      s,
      sidecar,
      pages,
      blocks: blocks.sort((a, b) => a - b),
      counted: [],
      ranged,
      need: needOf(area, filters, sort),
    });
  }
  // Two packs of one id would tie on ranks of different orders: the pages tell them apart by key.
  if (new Set(out.map((o) => o.sidecar.head.packId)).size !== out.length) return null;
  if (!after) return { scans: out, after };
  const own = out.find((o) => o.sidecar.head.packId === after.p);
  if (!own) return { scans: out, after };
  const r = await cursorRank(own, after);
  return r === null ? null : { scans: out, after: { ...after, r } };
}
