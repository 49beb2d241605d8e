// Which of a search's sidecar blocks are read (docs/design.md section 11): a block whose every lot passes is counted from
// its header, and read only when its best possible lot may still be among the first page's; the rest are read whole.
import { compare, type Position } from "../order.ts";
import type { SearchFilters, SearchSort } from "../query.ts";
import type { ResolvedArea } from "../search-area.ts";
import { type BlockEntry, col, SORT_COLUMNS } from "./format.ts";
import type { SidecarScan } from "./plan.ts";
import { hasNone, wholeTest } from "./skip.ts";

const SORT_COLUMN: Record<Exclude<SearchSort, "value">, (typeof SORT_COLUMNS)[number]> = {
  area: "area",
  fsr: "fsr",
  height: "height",
  station: "stationM",
};

/**
 * The best and worst place any lot of the block can take in the order (src/search/order.ts): its best lot's place as
 * the head names it (`best`), and the worst, its worst sort value (none, when some lot has none, sorts last) with its
 * greatest rank by lot key.
 */
function boundsOf(e: BlockEntry, sort: Exclude<SearchSort, "value">, packId: string) {
  const name = SORT_COLUMN[sort];
  const c = col(name);
  const lo = e.lo[c] ?? null;
  const hi = e.hi[c] ?? null;
  const up = sort === "station";
  const at = (v: number | null, r: number): Position => ({ v, p: packId, l: "", k: 0, r });
  const [v, r] = e.best[SORT_COLUMNS.indexOf(name)] as [number | null, number];
  const worst = at(hasNone(e, name) ? null : up ? hi : lo, e.hi[col("rank")] ?? 0);
  return { best: at(v, r), worst };
}

/**
 * Narrows each scan's blocks to those the search reads; `counted` gets the rest, whose lots are counted from their
 * headers. With `counts` false (a count stopping early, lots under higher-ranked ones) or a sort by value (priced per
 * lot), every block is read. A first page needs limit + 1 lots: a block whose every lot passes and comes after the
 * cursor holds one lot at its `best` place or better, and all its lots at its `worst` place or better; once such claims
 * hold limit + 1 lots at some place, a block whose best lot comes after that place cannot place one, and is left unread.
 */
export function narrowReads(
  scans: readonly SidecarScan[],
  area: ResolvedArea,
  filters: SearchFilters,
  sort: SearchSort,
  limit: number,
  after: Position | null,
  counts: boolean,
): void {
  if (!counts || sort === "value") return;
  const wholes = scans.map((scan) => {
    const test = wholeTest(scan.sidecar.head, area, filters, scan.pages);
    const out = new Map<number, ReturnType<typeof boundsOf>>();
    for (const b of scan.blocks) {
      const e = scan.sidecar.head.blocks[b] as BlockEntry;
      if (test(e)) out.set(b, boundsOf(e, sort, scan.sidecar.head.packId));
    }
    return out;
  });
  // The worst place the (limit + 1)th lot can take, from the claims of blocks wholly after the cursor, best first.
  const claims = wholes
    .flatMap((w, s) =>
      [...w].flatMap(([b, o]) => {
        if (after && compare(sort, o.best, after) <= 0) return [];
        const rows = ((scans[s] as SidecarScan).sidecar.head.blocks[b] as BlockEntry).rows;
        return [
          { at: o.best, lots: 1 },
          { at: o.worst, lots: rows - 1 },
        ];
      }),
    )
    .sort((a, b) => compare(sort, a.at, b.at));
  let edge: Position | null = null;
  let held = 0;
  for (const { at, lots } of claims) {
    held += lots;
    if (held > limit) {
      edge = at;
      break;
    }
  }
  scans.forEach((scan, s) => {
    const w = wholes[s] as Map<number, ReturnType<typeof boundsOf>>;
    const read: number[] = [];
    for (const b of scan.blocks) {
      const o = w.get(b);
      const wanted =
        o === undefined ||
        (!(after && compare(sort, o.worst, after) <= 0) && (edge === null || compare(sort, o.best, edge) <= 0));
      if (wanted) read.push(b);
      else scan.counted.push(b);
    }
    scan.blocks = read;
  });
}
