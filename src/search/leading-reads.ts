// The packs a search reads whole for its area (docs/design.md section 10): an organisation's own, and public packs
// ranked above the rest (imports). Their reads are planned from their roots and counted against the search's reads
// before any page is read, so twenty private packs over one area cannot take a request past its subrequests.
import type { BBox } from "../geo/bbox.ts";
import {
  chargedView,
  type DecodedPage,
  type PagePlan,
  ReadBudget,
  readPlans,
  type Snapshot,
} from "../packs/paged/index.ts";
import type { RankedPaged } from "../packs/precedence.ts";
import { refuseDamaged } from "../packs/request-pages.ts";
import type { Pack } from "../packs/types.ts";

/** A decoded pack the search tests whole (v1), or one page of a v2 pack seen as a pack, with its rank. */
export type Decoded = { pack: Pack; page: number; own: boolean; rank: number };

/** The leading packs' pages in an area, planned and not yet read. */
export type LeadingReads = {
  /** Lots and bytes of their pages in the area (the search's lots and bytes budget). */
  lots: number;
  bytes: number;
  /** Reads they take: one for each own pack's root or whole object, plus the ranges of every leading pack's pages. */
  reads: number;
  /** Of those, the page ranges this search makes itself. */
  ranges: number;
  /** Own packs and imports with lots in the area, for the refusal's sentence. */
  own: number;
  imports: number;
  /** Empty when `reads` goes over the ranges given: nothing may be read. */
  plans: { ranked: RankedPaged; plan: PagePlan }[];
};

/**
 * Plans the leading packs' pages in `box` within `ranges` reads, from their roots alone. An own pack costs one read
 * for its root or object as a cold isolate makes it (so a warm isolate answers as a cold one would), plus its
 * ranges; each pack gets at least its fewest ranges, and reads through its gaps only as far as the others leave room.
 * `ownWhole` counts own packs held whole (v1) over the area: one object read each.
 */
export async function planLeading(
  leading: readonly RankedPaged[],
  ownWhole: number,
  box: BBox,
  ranges: number,
): Promise<LeadingReads> {
  const out: LeadingReads = { lots: 0, bytes: 0, reads: 0, ranges: 0, own: ownWhole, imports: 0, plans: [] };
  const wanted: { ranked: RankedPaged; s: Snapshot; nos: number[]; fewest: number }[] = [];
  for (const ranked of leading) {
    const { pack } = ranked;
    const s = await pack.snapshot();
    const nos = pack.pagesInBox(s, box);
    if (nos.length === 0) continue;
    const cost = pack.measure(s, nos);
    out.lots += cost.lots;
    out.bytes += cost.bytes;
    if (ranked.own) out.own++;
    else out.imports++;
    // One range allowed: the gaps are read through as far as the reader's largest read lets, the fewest ranges.
    wanted.push({ ranked, s, nos, fewest: pack.planPages(s, nos, new ReadBudget({ ranges: 1 })).cost.ranges });
  }
  let rest = wanted.reduce((n, w) => n + w.fewest, 0);
  out.reads = out.own + rest;
  if (out.reads > ranges) return out;
  let left = ranges - out.own;
  for (const { ranked, s, nos, fewest } of wanted) {
    rest -= fewest;
    // Within what the packs after it need at least, so each is planned and none is refused.
    const plan = ranked.pack.planPages(s, nos, new ReadBudget({ ranges: left - rest }));
    left -= plan.cost.ranges;
    out.ranges += plan.cost.ranges;
    out.plans.push({ ranked, plan });
  }
  out.reads = out.own + out.ranges;
  return out;
}

/** The planned pages, read `concurrency` ranges at once and kept in the page cache, in pack then page order. */
export async function readLeading(
  plans: LeadingReads["plans"],
  concurrency: number,
): Promise<{ decoded: Decoded[]; bytes: number }> {
  const landed = new Map<PagePlan, DecodedPage[]>();
  for await (const got of readPlans(
    plans.map((p) => p.plan),
    { concurrency },
  )) {
    refuseDamaged(got.refused);
    landed.set(got.plan, [...(landed.get(got.plan) ?? []), ...got.pages]);
  }
  const decoded: Decoded[] = [];
  let bytes = 0;
  for (const { ranked, plan } of plans) {
    bytes += plan.cost.bytes;
    const pages = (landed.get(plan) ?? []).sort((a, b) => a.no - b.no);
    for (const page of pages) {
      decoded.push({
        pack: chargedView(ranked.pack, plan.snapshot, page),
        page: page.no,
        own: ranked.own,
        rank: ranked.rank,
      });
    }
  }
  return { decoded, bytes };
}
