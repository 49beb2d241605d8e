// The site search (docs/design.md section 11): one engine for POST /sites/search and the chat's lot-finding tool.
import { type BBox, bboxIntersects } from "../geo/bbox.ts";
import { UnprocessableError } from "../errors.ts";
import { featureAt } from "../packs/lookup.ts";
import { type PagedPack, type PagePlan, ReadBudget, readPlans, type Snapshot } from "../packs/paged/index.ts";
import { type VisiblePacks, wholePacks } from "../packs/open-pack.ts";
import { leadingPaged, OWN_RANK, rankedPaged } from "../packs/precedence.ts";
import { PARCELS } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { resolveSearchArea } from "./search-area.ts";
import { type FactsTable, latOf, lonOf, shareOf } from "./facts-table.ts";
import { cleanFilters, lotTest, pageMayMatch } from "./filters.ts";
import {
  compare,
  decodeCursor,
  encodeCursor,
  fingerprint,
  lotKey,
  type MarginOf,
  ordinalOf,
  type Position,
  sortValue,
} from "./order.ts";
import { Pacer } from "./pacer.ts";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from "../routes/schemas/limits.ts";
import {
  MAX_RANGES,
  MAX_SEARCH_BYTES,
  MAX_SEARCH_LOTS,
  type SearchAnswer,
  type SearchQuery,
  type SearchWork,
  type SiteResult,
} from "./query.ts";
import { cachedPageTable, packTable, tablesOfRange } from "./tables.ts";
import { type Decoded, type LeadingReads, planLeading, readLeading } from "./leading-reads.ts";
import { pageTables, planSidecars, type SidecarScan } from "./sidecar/plan.ts";
import { marginReader, valueColumnsOfPack } from "./value-figures.ts";
import { type BlockTable, readsValue, SIDECAR_CACHE_BYTES, type Sidecar } from "./sidecar/reader.ts";
import { prefetchSidecar } from "./sidecar/registry.ts";
import { type BlockEntry, col } from "./sidecar/format.ts";
import { narrowReads } from "./sidecar/narrow.ts";

/** Where a result's lot lives, for callers that need its outline (the chat's map). */
export type SiteRef =
  | { pack: Pack; index: number }
  | { paged: PagedPack; snapshot: Snapshot; page: number; index: number };

export type SearchOutcome = SearchAnswer & {
  label: string;
  areaBbox: BBox;
  refs: SiteRef[];
  work: SearchWork;
  /** True when more than `stopAbove` lots matched: the count stopped there and no results are given. */
  stopped: boolean;
  /** Smallest and largest lot of the area, whatever the filters; null when some pages were skipped unread or none was seen. */
  areaRange: [number, number] | null;
};

// A search reading at most this many pages keeps them in the page cache (a suburb: its results are drawn next).
const KEEP_PAGES = 24;
// Reads in flight at once: R2's first byte is about 20 ms, so a few overlap it without holding much memory.
const CONCURRENT_READS = 3;
// A sidecar's runs start together while their bytes in hand stay under this (memory is the bound, not the count).
const RUN_BYTES_IN_FLIGHT = 8 * 1024 * 1024;

// A sidecar's candidate holds no table (its block goes once tested), only its label point's float32 offsets from its
// page's origin: its page's columns are read for the answer.
type Candidate = { pos: Position; t: FactsTable | null; i: number; ref: SiteRef; xy: [number, number] | null };
type Shown = { pos: Position; t: FactsTable; i: number; ref: SiteRef };

const r1 = (x: number) => Math.round(x * 10) / 10;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r7 = (x: number) => Math.round(x * 1e7) / 1e7;
const orNull = (x: number) => (Number.isNaN(x) ? null : x);

function resultOf(c: Shown): SiteResult {
  const { t, i } = c;
  const stationName = t.station.names[t.station.codes[i] as number] ?? null;
  const stationM = t.stationM[i] as number;
  return {
    pack_id: t.packId,
    lot_id: t.lotId[i] ?? null,
    center: [r7(lonOf(t, i)), r7(latOf(t, i))],
    area_m2: r1(t.area[i] as number),
    zone: t.zone.names[t.zone.codes[i] as number] ?? null,
    fsr: orNull(r4(t.fsr[i] as number)),
    height_m: orNull(r1(t.height[i] as number)),
    min_lot_m2: orNull(Math.round(t.minLot[i] as number)),
    overlays: {
      flood: r4(shareOf(t.flood, i)),
      bushfire: r4(shareOf(t.bushfire, i)),
      heritage: r4(shareOf(t.heritage, i)),
    },
    station:
      stationName !== null && !Number.isNaN(stationM) ? { name: stationName, distance_m: Math.round(stationM) } : null,
    address: t.address?.[i] ?? null,
    suburb: t.suburb.names[t.suburb.codes[i] as number] ?? null,
    lga: t.lga.names[t.lga.codes[i] as number] ?? null,
    demo_data: t.demo[i] === 1,
  };
}

const tooLarge = (why: string) => new UnprocessableError(why, ["body", "area"], "area_too_large");
const num = (n: number) => n.toLocaleString("en-AU");
const mib = (bytes: number) => num(Math.ceil((bytes / 1024 / 1024) * 10) / 10);
const NARROW = "search a suburb, an LGA or a smaller box, or add a zone or minimum-area filter";
// The packs read whole in a refusal's words: the organisation's own first, then imports.
function leadingPacks(lead: LeadingReads): string {
  const packs = (n: number, kind: string) => `${num(n)} ${kind}pack${n === 1 ? "" : "s"}`;
  const own = lead.own > 0 ? `your organisation's ${packs(lead.own, "")}` : "";
  const imports = lead.imports > 0 ? packs(lead.imports, "imported ") : "";
  return [own, imports].filter((x) => x !== "").join(" and ");
}

/** How much one search may do, and how it ends early. */
export type SearchLimits = {
  /** The work budget: lots tested and bytes read, judged from the packs' roots before any page is read. */
  maxLots?: number;
  maxBytes?: number;
  maxRanges?: number;
  /** The request's budget, when its caller reads more after the search (maxLots, maxBytes and maxRanges are then its limits). */
  budget?: ReadBudget;
  /** Ranges of the budget the search leaves for its caller's reads of the results' pages. */
  reserveRanges?: number;
  /** Stop once more than this many lots match: the outcome is then `stopped`, its count stopAbove + 1, with no results. */
  stopAbove?: number;
  /** The most results one answer holds: SEARCH_MAX_LIMIT, unless an internal caller takes every match in one pass. */
  maxLimit?: number;
  /** Lots tested between two yields to the event loop at most. */
  yieldEvery?: number;
  /** False: read the packs' pages even where a search sidecar is attached (tests compare both paths). */
  sidecar?: boolean;
  /** False: read every sidecar block that may match, none counted from its header (tests compare both). */
  narrow?: boolean;
};

/** Runs one search: every lot of the area passing the filters is counted; a page of them is returned in order. */
export async function searchSites(
  packs: VisiblePacks,
  q: SearchQuery,
  limits: SearchLimits = {},
): Promise<SearchOutcome> {
  // The budget, from the roots alone: every lot of a page that may match is tested, every byte of it read.
  const budget =
    limits.budget ??
    new ReadBudget({
      lots: limits.maxLots ?? MAX_SEARCH_LOTS,
      bytes: limits.maxBytes ?? MAX_SEARCH_BYTES,
      ranges: limits.maxRanges ?? MAX_RANGES,
    });
  const { lots: maxLots, bytes: maxBytes } = budget.limit;
  const release = budget.hold({ ranges: limits.reserveRanges ?? 0 });
  const maxRanges = budget.left.ranges;
  const stopAbove = limits.stopAbove ?? Infinity;
  const base = wholePacks(packs);
  const area = resolveSearchArea(base, q.area);
  const filters = cleanFilters(q.filters);
  const sort = q.sort ?? "area";
  const limit = Math.min(limits.maxLimit ?? SEARCH_MAX_LIMIT, Math.max(1, Math.floor(q.limit ?? SEARCH_DEFAULT_LIMIT)));
  const searchId = fingerprint(JSON.stringify({ a: q.area, f: filters, s: sort }));
  // A value sort prices each lot on the caller's assumptions; its cursor names their version.
  const priced = sort === "value" ? q.assumptions : undefined;
  if (sort === "value" && !priced) throw new Error("a search sorted by value needs the caller's assumptions");
  const version = priced?.version;
  const margin: MarginOf | undefined = priced ? marginReader(priced) : undefined;
  let after = q.cursor ? decodeCursor(searchId, q.cursor, version) : null;
  const pacer = new Pacer(limits.yieldEvery);
  const work: SearchWork = {
    pagesInArea: 0,
    pagesSkipped: 0,
    pagesRead: 0,
    blocksRead: 0,
    blocksCounted: 0,
    ranges: 0,
    bytesRead: 0,
    lotsTested: 0,
    edgesTested: 0,
    yields: 0,
    mostLotsBetweenYields: 0,
  };

  let lots = 0;
  let bytes = 0;
  // A cold isolate reads each public pack's sidecar head beside its root, not after it (one round of reads fewer);
  // with the root in hand the head is read where it is needed (a pack ranked above the rest needs none).
  const heads = new Map<PagedPack, Promise<Sidecar | null>>();
  for (const p of limits.sidecar === false ? [] : packs) {
    const early = p.paged && !p.own && p.paged.current() === null ? prefetchSidecar(p.paged) : undefined;
    if (p.paged && early) heads.set(p.paged, early);
  }
  // Precedence (docs/design.md section 10): packs that outrank another are read whole for the area, the rest scanned.
  const { leading: ownPaged, rest, floor } = leadingPaged(await rankedPaged(packs));
  const uploaded = base.filter((p) => p.meta.upload !== undefined && p.layers.get(PARCELS)?.kind === "polygon");
  const wholes: Decoded[] = [...uploaded, ...base.filter((p) => !uploaded.includes(p))]
    .filter((pack) => pack.layers.has(PARCELS) && bboxIntersects(pack.bbox, area.bbox))
    .map((pack) => ({ pack, page: 0, own: uploaded.includes(pack), rank: uploaded.includes(pack) ? OWN_RANK : floor }));
  for (const { pack } of wholes) lots += pack.layers.get(PARCELS)?.count ?? 0;
  // The leading packs' reads come first from the reads allowed: refused here, before any page is read.
  const ownWhole = wholes.filter((w) => w.own).length;
  const lead = await planLeading(ownPaged, ownWhole, area.bbox, budget.left.ranges);
  if (lead.reads > budget.left.ranges) {
    throw tooLarge(
      `Searching ${area.label} would take ${num(lead.reads)} reads of ${leadingPacks(lead)} there, each read whole, more than the ${num(maxRanges)} reads one search may make: choose a smaller area (a suburb or a box) holding fewer of them`,
    );
  }
  budget.spend({ ranges: lead.reads });
  lots += lead.lots;
  bytes += lead.bytes;
  // v2 packs: the area's pages from each root, skipped by their summaries where they cannot match.
  const scans: {
    pack: PagedPack;
    s: Snapshot;
    cached: { no: number; t: FactsTable }[];
    toRead: number[];
    mayMatch: number[];
  }[] = [];
  let pageBytes = 0;
  let pageLots = 0;
  for (const { pack } of rest) {
    const snap = await pack.snapshot();
    const pages = pack.pagesInBox(snap, area.bbox);
    work.pagesInArea += pages.length;
    const mayMatch: number[] = [];
    const scan = { pack, s: snap, cached: [] as { no: number; t: FactsTable }[], toRead: [] as number[], mayMatch };
    for (const no of pages) {
      if (!pageMayMatch(filters, snap.root, no)) {
        work.pagesSkipped++;
        continue;
      }
      mayMatch.push(no);
      const t = cachedPageTable(snap, no);
      // A table cached by another sort may lack the value figures: its page is read again for them.
      if (t && (!margin || t.value)) scan.cached.push({ no, t });
      else scan.toRead.push(no);
    }
    const cost = pack.measure(snap, mayMatch);
    pageLots += cost.lots;
    pageBytes += cost.bytes;
    scans.push(scan);
  }
  // With a sidecar for every scanned pack, the blocks that may match are read in place of pages: same lots, same answers.
  const side =
    limits.sidecar === false || scans.length === 0
      ? null
      : await planSidecars(scans, area, filters, sort, work.pagesSkipped > 0, after, heads);
  const sideIds = new Set(side?.scans.map((o) => o.sidecar.head.packId) ?? []);
  const sidecar = side && !wholes.some((w) => sideIds.has(w.pack.id)) ? side : null;
  if (sidecar) after = sidecar.after;
  // Counts from headers hold only where every lot found is counted: no count stopping early, none under a ranked lot.
  const headerCounts =
    limits.narrow !== false && stopAbove === Infinity && ownPaged.length === 0 && wholes.every((w) => w.rank <= floor);
  if (sidecar) narrowReads(sidecar.scans, area, filters, sort, limit, after, headerCounts);
  // A sidecar's runs planned within the ranges left: the budget counts what they read (the gaps a run spans too) and
  // the lots of the blocks read, not the blocks counted from their headers.
  const runs: { scan: SidecarScan; run: number[] }[] = [];
  let runReads = 0;
  for (const scan of sidecar?.scans ?? []) {
    // Sorted by value, a run is two reads: its blocks' columns, and its value figures kept after every block's.
    const per = readsValue(scan.need) ? 2 : 1;
    for (const run of scan.sidecar.runsOf(
      scan.blocks,
      Math.max(1, Math.floor((budget.left.ranges - runReads) / per)),
    )) {
      runs.push({ scan, run });
      runReads += per;
    }
  }
  bytes += sidecar ? runs.reduce((n, { scan, run }) => n + scan.sidecar.runBytes(run, scan.need), 0) : pageBytes;
  lots += sidecar ? sidecar.scans.reduce((n, o) => n + o.sidecar.rowsOf(o.blocks), 0) : pageLots;
  const over = budget.over({ lots, bytes });
  if (over === "lots") {
    throw tooLarge(
      `Searching ${area.label} with these filters would test ${num(lots)} lots, more than the ${num(maxLots)} one search may test: ${NARROW}`,
    );
  }
  if (over === "bytes") {
    throw tooLarge(
      `Searching ${area.label} with these filters would read ${mib(bytes)} MiB of lots, more than the ${mib(maxBytes)} MiB one search may read: ${NARROW}`,
    );
  }
  if (runReads > budget.left.ranges) {
    throw tooLarge(`Searching ${area.label} with these filters needs more than ${maxRanges} reads: ${NARROW}`);
  }
  // Each pack's reads planned once, within the ranges its predecessors left; refused before any is read.
  const plans: PagePlan[] = [];
  budget.spend({ ranges: runReads });
  for (const { pack, s: snap, toRead } of sidecar ? [] : scans) {
    if (toRead.length === 0) continue;
    const plan = pack.planPages(snap, toRead, budget);
    if (plan.over !== null) {
      throw tooLarge(
        `Searching ${area.label} with these filters needs more than ${maxRanges} reads of pack ${snap.root.meta.id}: narrow the area or add a zone or minimum area filter`,
      );
    }
    plans.push(plan);
  }
  work.ranges = lead.ranges + runReads + plans.reduce((n, p) => n + p.cost.ranges, 0);
  release();

  const ownRead = await readLeading(lead.plans, CONCURRENT_READS);
  work.bytesRead += ownRead.bytes;
  const decoded = [...ownRead.decoded, ...wholes];
  const ownLayers = decoded.flatMap((d) => {
    const layer = d.rank > floor ? d.pack.layers.get(PARCELS) : undefined;
    return layer ? [{ layer, rank: d.rank }] : [];
  });
  const ownLotAt = (x: number, y: number, rank: number) =>
    ownLayers.some((o) => o.rank > rank && featureAt(o.layer, x, y) >= 0);

  let count = 0;
  let stopped = false;
  let smallest = Infinity;
  let largest = -Infinity;
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const top: Candidate[] = [];
  // One lot: in the area, then the filters, then (when it may be shown) its place among the best so far.
  const visit = (
    t: FactsTable,
    rank: number,
    i: number,
    page: number,
    inArea: (i: number) => boolean,
    pass: (i: number) => boolean,
    refOf: (i: number) => SiteRef,
    block?: BlockLots,
  ) => {
    if (!inArea(i)) return;
    const lotArea = t.area[i] as number;
    if (lotArea < smallest) smallest = lotArea;
    if (lotArea > largest) largest = lotArea;
    if (!pass(i)) return;
    // Each place once, the highest-ranked lot first (the organisation's own, then an import's, then the world's).
    const x = lonOf(t, i);
    const y = latOf(t, i);
    if (rank !== OWN_RANK && ownLayers.length > 0 && ownLotAt(x, y, rank)) return;
    count++;
    if (count > stopAbove) {
      stopped = true;
      return;
    }
    if (x < box[0]) box[0] = x;
    if (y < box[1]) box[1] = y;
    if (x > box[2]) box[2] = x;
    if (y > box[3]) box[3] = y;
    const k = block ? block.ordinal(i) : ordinalOf(page, i);
    const pos: Position = block
      ? { v: sortValue(sort, t, i, margin), p: t.packId, l: "", k, r: block.keyRank(i) }
      : { v: sortValue(sort, t, i, margin), p: t.packId, l: lotKey(t, i, k), k };
    if (after && compare(sort, pos, after) <= 0) return;
    // Keep limit + 1 so a next page is known to exist; most lots lose to the current last and stop here.
    const last = top[top.length - 1];
    if (top.length > limit && last && compare(sort, pos, last.pos) >= 0) return;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(sort, (top[mid] as Candidate).pos, pos) < 0) lo = mid + 1;
      else hi = mid;
    }
    const xy: [number, number] | null = block ? [t.x[i] as number, t.y[i] as number] : null;
    top.splice(lo, 0, { pos, t: block ? null : t, i, ref: refOf(i), xy });
    if (top.length > limit + 1) top.pop();
  };
  // A table in chunks, yielding between them, so one search never holds the isolate for long.
  const consume = async (
    t: FactsTable,
    page: number,
    refOf: (i: number) => SiteRef,
    rank = floor,
    block?: BlockLots,
  ) => {
    const tester = area.tester(t);
    const inArea = block ? (i: number) => block.counted(i) && tester(i) : tester;
    const pass = lotTest(filters, t);
    let i = 0;
    while (i < t.count && !stopped) {
      await pacer.ready();
      // Read after the await: the pacer's room is known only once it has yielded.
      const from = i;
      const end = Math.min(t.count, i + pacer.left());
      while (i < end && !stopped) visit(t, rank, i++, page, inArea, pass, refOf, block);
      pacer.tested(i - from);
      work.lotsTested += i - from;
    }
  };

  // Decoded packs first (the organisation's own, then public v1 packs), then pages in the isolate's cache.
  for (const { pack, page, own, rank } of decoded) {
    const t = packTable(pack, base, own);
    // Its lots' figures, scored from the overlays as a score of them is, once per table.
    if (t && margin && !t.value) t.value = valueColumnsOfPack(pack, base) ?? undefined;
    if (t) await consume(t, page, (index) => ({ pack, index }), rank);
  }
  for (const { pack, s: snap, cached } of sidecar ? [] : scans) {
    for (const { no, t } of cached) await consume(t, no, (index) => ({ paged: pack, snapshot: snap, page: no, index }));
  }
  // Blocks left unread, from their headers alone: those whose every lot passes are counted and boxed; they and those
  // wholly in the area none of whose lots passes give the area's range of lot sizes.
  for (const scan of sidecar?.scans ?? []) {
    const head = scan.sidecar.head;
    for (const b of scan.counted) {
      const e = head.blocks[b] as BlockEntry;
      count += e.rows;
      work.blocksCounted++;
      if (e.box[0] < box[0]) box[0] = e.box[0];
      if (e.box[1] < box[1]) box[1] = e.box[1];
      if (e.box[2] > box[2]) box[2] = e.box[2];
      if (e.box[3] > box[3]) box[3] = e.box[3];
    }
    for (const b of [...scan.counted, ...scan.ranged]) {
      const e = head.blocks[b] as BlockEntry;
      smallest = Math.min(smallest, e.lo[col("area")] ?? Infinity);
      largest = Math.max(largest, e.hi[col("area")] ?? -Infinity);
    }
  }
  // A sidecar's blocks as each run lands: memory holds a few runs' blocks and the best candidates, never the area.
  if (sidecar && !stopped) {
    // Kept for the next search only when they all fit the isolate's block cache: a region's blocks would evict each
    // other before any later search found them, and hold the cache's bytes beside the blocks in hand for nothing.
    const blockBytes = sidecar.scans.reduce((n, o) => n + o.sidecar.decodedBytes(o.blocks, o.need), 0);
    const keepBlocks = runs.length <= KEEP_PAGES && blockBytes <= SIDECAR_CACHE_BYTES;
    for await (const { scan, tables, bytes } of readRuns(runs, keepBlocks)) {
      work.bytesRead += bytes;
      work.blocksRead += bytes > 0 ? tables.length : 0;
      for (const take of tables) {
        const bt = take();
        const lots = blockLots(scan, bt);
        await consume(bt.t, 0, lots.ref, floor, lots);
        if (stopped) break;
      }
      if (stopped) break;
    }
  }
  const keep = plans.reduce((n, p) => n + p.cost.pages, 0) <= KEEP_PAGES;
  // Tables are consumed as each range lands, so memory holds a few ranges' tables, never the whole area.
  if (!sidecar && !stopped) {
    for await (const landed of readPlans(plans, { keep, concurrency: CONCURRENT_READS })) {
      const { pack, snapshot } = landed.plan;
      const { tables, bytes } = tablesOfRange(landed, margin !== undefined);
      work.bytesRead += bytes;
      work.pagesRead += tables.length;
      for (const { no, table } of tables) {
        await consume(table, no, (index) => ({ paged: pack, snapshot, page: no, index }));
      }
      if (stopped) break;
    }
  }
  work.edgesTested = area.edgesTested();
  work.yields = pacer.yields;
  work.mostLotsBetweenYields = pacer.most;

  const shown = stopped ? [] : await withTables(top.slice(0, limit), budget, work);
  const lastShown = shown[shown.length - 1];
  return {
    count,
    stopped,
    results: shown.map(resultOf),
    next_cursor: !stopped && top.length > limit && lastShown ? encodeCursor(searchId, lastShown.pos, version) : null,
    bbox: count > 0 ? (box.map(r7) as BBox) : area.bbox,
    label: area.label,
    areaBbox: area.bbox,
    refs: shown.map((c) => c.ref),
    work,
    areaRange: !stopped && work.pagesSkipped === 0 && smallest <= largest ? [r1(smallest), r1(largest)] : null,
  };
}

/** A sidecar block's lots: each of its own page, counted only where the page path reads that page, ranked by key. */
type BlockLots = {
  ordinal(i: number): number;
  keyRank(i: number): number;
  counted(i: number): boolean;
  ref(i: number): SiteRef;
};

function blockLots(scan: SidecarScan, bt: BlockTable): BlockLots {
  const starts = scan.sidecar.head.pageStarts;
  const indexOf = (i: number) => (bt.row[i] as number) - (starts[bt.page[i] as number] as number);
  return {
    ordinal: (i) => ordinalOf(bt.page[i] as number, indexOf(i)),
    keyRank: (i) => bt.rank[i] as number,
    counted: (i) => scan.pages[bt.page[i] as number] === 1,
    ref: (i) => ({ paged: scan.pack, snapshot: scan.s, page: bt.page[i] as number, index: indexOf(i) }),
  };
}

type LandedRun = { scan: SidecarScan; tables: (() => BlockTable)[]; bytes: number };

// Runs read a few at a time, each handed over as it lands (cached blocks without a read).
async function* readRuns(
  runs: readonly { scan: SidecarScan; run: number[] }[],
  keep: boolean,
): AsyncGenerator<LandedRun> {
  const inFlight: Promise<LandedRun>[] = [];
  let next = 0;
  const start = () => {
    const { scan, run } = runs[next++] as { scan: SidecarScan; run: number[] };
    const cached = run.map((b) => scan.sidecar.cached(b, scan.need));
    const read: Promise<LandedRun> = cached.every((c) => c !== undefined)
      ? Promise.resolve({ scan, tables: (cached as BlockTable[]).map((t) => () => t), bytes: 0 })
      : scan.sidecar
          .readRun(run, keep, scan.need)
          .then((tables) => ({ scan, tables, bytes: scan.sidecar.runBytes(run, scan.need) }));
    // Handled here so a read never taken (the search stopped) is no unhandled rejection; awaited below it still throws.
    read.catch(() => undefined);
    inFlight.push(read);
  };
  // Bytes of the runs in flight or landed and not yet taken: small runs (a council area's) all go in one round, large
  // ones (a region's, up to MAX_RUN_BYTES each) two at a time, so memory holds those and the run in hand, whatever the
  // region's size.
  let held = 0;
  const bytesOf = (k: number) => {
    const { scan, run } = runs[k] as { scan: SidecarScan; run: number[] };
    return scan.sidecar.runBytes(run, scan.need);
  };
  const room = () => next < runs.length && (inFlight.length === 0 || held + bytesOf(next) <= RUN_BYTES_IN_FLIGHT);
  const startHeld = () => {
    held += bytesOf(next);
    start();
  };
  while (room()) startHeld();
  let k = 0;
  while (inFlight.length > 0) {
    const got = await (inFlight.shift() as Promise<LandedRun>);
    held -= bytesOf(k++);
    while (room()) startHeld();
    yield got;
  }
}

// The shown candidates with their pages' tables: a sidecar's are read now, one plan a pack, for ids and addresses.
async function withTables(cands: Candidate[], budget: ReadBudget, work: SearchWork): Promise<Shown[]> {
  const wanted = new Map<PagedPack, { s: Snapshot; nos: number[]; lots: Map<number, Set<number>> }>();
  for (const c of cands) {
    if (c.t !== null || "pack" in c.ref) continue;
    const w = wanted.get(c.ref.paged) ?? {
      s: c.ref.snapshot,
      nos: [] as number[],
      lots: new Map<number, Set<number>>(),
    };
    w.nos.push(c.ref.page);
    w.lots.set(c.ref.page, (w.lots.get(c.ref.page) ?? new Set()).add(c.ref.index));
    wanted.set(c.ref.paged, w);
  }
  const read = new Map<PagedPack, { tables: Map<number, FactsTable>; placeless: Set<number> }>();
  await Promise.all(
    [...wanted].map(async ([pack, w]) => {
      // A few pages are read whole and kept (their outlines are drawn next); many, their columns alone.
      const got = await pageTables(pack, w.s, w.nos, budget, w.lots, w.lots.size > KEEP_PAGES);
      work.bytesRead += got.bytes;
      work.pagesRead += got.read;
      read.set(pack, got);
    }),
  );
  return cands.map((c) => {
    if (c.t !== null) return { pos: c.pos, t: c.t, i: c.i, ref: c.ref };
    if ("pack" in c.ref) throw new Error("a sidecar candidate names a decoded pack");
    const got = read.get(c.ref.paged);
    const t = got?.tables.get(c.ref.page);
    if (!t) throw new Error(`pack ${c.ref.snapshot.key}: page ${c.ref.page} was not read`);
    // The sidecar holds the very offsets the page's table would compute.
    if (c.xy && got?.placeless.has(c.ref.page)) {
      t.x[c.ref.index] = c.xy[0];
      t.y[c.ref.index] = c.xy[1];
    }
    const pos: Position = { v: c.pos.v, p: c.pos.p, l: lotKey(t, c.ref.index, c.pos.k), k: c.pos.k };
    return { pos, t, i: c.ref.index, ref: c.ref };
  });
}
