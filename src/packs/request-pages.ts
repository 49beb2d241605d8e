// Where a request will look: the pages of v2 packs it needs are read before the (synchronous) spatial work runs.
import type { BBox } from "../geo/bbox.ts";
import { UnprocessableError } from "../errors.ts";
import {
  chargedView,
  type DecodedPage,
  type PagedPack,
  PageRefusedError,
  ReadBudget,
  type RefusedPage,
} from "./paged/index.ts";
import type { Pack } from "./types.ts";

export type PackArea = { box: BBox } | { lotId: string };

export const pointArea = (lon: number, lat: number): PackArea => ({ box: [lon, lat, lon, lat] });

// Workers allow a request about 50 subrequests to R2; a query needing more pages than this is refused, not half-read.
export const MAX_PAGES_PER_REQUEST = 64;

/** A page a request needs was refused (damaged): the request is a 503 naming the pack and page, never a partial answer. */
export function refuseDamaged(refused: readonly RefusedPage[]): void {
  const [bad] = refused;
  if (bad) throw new PageRefusedError(bad.key, bad.message, bad.page);
}

/** The pages one request may read of v2 packs (a budget of pages, spent as each pack's are taken). */
export const requestPages = (): ReadBudget => new ReadBudget({ pages: MAX_PAGES_PER_REQUEST });

/** Too many pages for one request: refused from the root alone, before any page is read. */
function tooLarge(pack: string, budget: ReadBudget): UnprocessableError {
  return new UnprocessableError(
    `This area needs more than ${budget.limit.pages} pages of pack ${pack}: choose a smaller area`,
    [],
    "area_too_large",
  );
}

// Every area a box and every page under it cached: the pages without a promise per page (a warm lookup's path).
function warmPages(pack: PagedPack, areas: readonly PackArea[], budget: ReadBudget): DecodedPage[] | null {
  const s = pack.current();
  if (!s) return null;
  if (areas.length === 1) {
    const [a] = areas;
    if (!a || !("box" in a)) return null;
    const nos = pack.pagesInBox(s, a.box);
    if (budget.over({ pages: nos.length })) throw tooLarge(s.root.meta.id, budget);
    return pack.cachedPages(s, nos);
  }
  // In area order, as the cold path gives them: the first pack holding a point answers it.
  const nos = new Set<number>();
  for (const a of areas) {
    if (!("box" in a)) return null;
    for (const no of pack.pagesInBox(s, a.box)) nos.add(no);
  }
  if (budget.over({ pages: nos.size })) throw tooLarge(s.root.meta.id, budget);
  return pack.cachedPages(s, [...nos]);
}

/**
 * The pages of each v2 pack the areas need, as small v1 packs; a damaged page needed here is a 503 naming it.
 * `maxReads` bounds each area's range requests (gaps between its pages are read through): a tile asks for 2.
 */
export async function pagesFor(
  paged: readonly PagedPack[],
  areas: readonly PackArea[],
  opts: { maxReads?: number } = {},
): Promise<Pack[]> {
  if (areas.length === 0 || paged.length === 0) return [];
  const out: Pack[] = [];
  const budget = requestPages();
  for (const pack of paged) {
    const warm = warmPages(pack, areas, budget);
    const s0 = warm ? pack.current() : null;
    if (warm && s0) {
      for (const page of warm) out.push(chargedView(pack, s0, page));
      budget.spend({ pages: warm.length });
      continue;
    }
    // Counted from the root before any page is read, so a too-large area costs no reads (nor a revalidation: the
    // page reads below carry the root's etag).
    const s = await pack.planningSnapshot();
    const boxPages = new Set(areas.flatMap((a) => ("box" in a ? pack.pagesInBox(s, a.box) : [])));
    const lotPages = areas.filter((a) => "lotId" in a).length;
    if (budget.over({ pages: boxPages.size + lotPages })) throw tooLarge(s.root.meta.id, budget);
    const seen = new Set<DecodedPage>();
    const sets = await Promise.all(
      areas.map((a) => ("box" in a ? pack.pagesForBox(a.box, undefined, opts) : pack.pagesForLot(a.lotId))),
    );
    for (const set of sets) {
      refuseDamaged(set.refused);
      for (const page of set.pages) {
        if (seen.has(page)) continue;
        seen.add(page);
        const snap = set.snapshot;
        out.push(chargedView(pack, snap, page));
        budget.spend({ pages: 1 });
      }
    }
  }
  return out;
}
