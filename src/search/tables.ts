// Where a search's facts tables come from: v1 packs (computed once per pack) and v2 pages (as planned ranges land).
import { ByteLru } from "../packs/byte-lru.ts";
import { refuseDamaged } from "../packs/request-pages.ts";
import type { LandedPages, Snapshot } from "../packs/paged/index.ts";
import type { Pack } from "../packs/types.ts";
import { type FactsTable, tableFromPack, tableFromPage, VALUE_BYTES_PER_LOT } from "./facts-table.ts";
import { clearSidecarBlocks } from "./sidecar/reader.ts";
import { valueColumnsOfPage } from "./value-figures.ts";

// A lot's search facts take about 90 bytes: 24 MiB keeps the pages of an LGA's box (some 250,000 lots) warm.
export const FACTS_CACHE_BYTES = 24 * 1024 * 1024;
const pageTables = new ByteLru<FactsTable>(FACTS_CACHE_BYTES, Number.POSITIVE_INFINITY);
const packTables = new WeakMap<Pack, Map<string, FactsTable | null>>();

const pageKey = (s: Snapshot, no: number) => `${s.key}\u0000${s.etag}\u0000${no}`;

/** A table cached for page `no` of this version, if any. */
export function cachedPageTable(s: Snapshot, no: number): FactsTable | undefined {
  return pageTables.get(pageKey(s, no));
}

/**
 * The tables of one range's pages as it lands (cached for later searches); a damaged page is a 503 naming it. `value`:
 * with each lot's value figures (a search sorted by value where the pack has no sidecar).
 */
export function tablesOfRange(
  landed: LandedPages,
  value = false,
): { tables: { no: number; table: FactsTable }[]; bytes: number } {
  refuseDamaged(landed.refused);
  const { pack, snapshot: s } = landed.plan;
  const tables = landed.pages.map((page) => {
    const table = tableFromPage(s, page);
    if (value) {
      table.value = valueColumnsOfPage(s, page);
      table.bytes += page.count * VALUE_BYTES_PER_LOT;
    }
    pageTables.set(pageKey(s, page.no), table, table.bytes);
    return { no: page.no, table };
  });
  const bytes = pack.measure(
    s,
    tables.map((t) => t.no),
  ).bytes;
  return { tables, bytes };
}

/** A v1 pack's lots as a table, computed once per pack and set of overlay packs. */
export function packTable(pack: Pack, packs: readonly Pack[], own: boolean): FactsTable | null {
  let byPacks = packTables.get(pack);
  if (!byPacks) {
    byPacks = new Map();
    packTables.set(pack, byPacks);
  }
  // A lot's facts depend on every overlay in scope (an organisation's own layers too).
  const sig = packs.map((p) => `${p.id}@${p.version}#${p.checksum}`).join("|");
  if (!byPacks.has(sig)) byPacks.set(sig, tableFromPack(pack, packs, own));
  return byPacks.get(sig) ?? null;
}

/** Forgets cached tables (tests and benchmarks measure cold searches). */
export function clearSearchTables(): void {
  for (const k of pageTables.keys()) pageTables.delete(k);
  clearSidecarBlocks();
}
