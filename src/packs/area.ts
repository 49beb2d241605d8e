// Where a request will look: the pages of v2 packs it needs are read before the (synchronous) spatial work runs.
import type { BBox } from "../geo/bbox.ts";
import { UnavailableError, UnprocessableError } from "../errors.ts";
import { pagePack } from "./paged/page-pack.ts";
import type { PagedPack, RefusedPage } from "./paged/reader.ts";
import type { DecodedPage } from "./paged/page.ts";
import type { Pack } from "./types.ts";

export type PackArea = { box: BBox } | { lotId: string };

export const pointArea = (lon: number, lat: number): PackArea => ({ box: [lon, lat, lon, lat] });

// Workers allow a request about 50 subrequests to R2; a query needing more pages than this is refused, not half-read.
export const MAX_PAGES_PER_REQUEST = 64;

/** A page a request needs was refused (damaged): the request is a 503 naming it, never a partial answer. */
export function refuseDamaged(refused: readonly RefusedPage[]): void {
  const [bad] = refused;
  if (bad)
    throw new UnavailableError(`pack page (${bad.message})`, { detail: `Pack data unavailable: ${bad.message}` });
}

/** The pages of each v2 pack the areas need, as small v1 packs; a damaged page needed here is a 503 naming it. */
export async function pagesFor(paged: readonly PagedPack[], areas: readonly PackArea[]): Promise<Pack[]> {
  if (areas.length === 0 || paged.length === 0) return [];
  const out: Pack[] = [];
  for (const pack of paged) {
    // Counted from the root before any page is read, so a too-large area costs no reads.
    const s = await pack.snapshot();
    const boxPages = new Set(areas.flatMap((a) => ("box" in a ? pack.pagesInBox(s, a.box) : [])));
    const lotPages = areas.filter((a) => "lotId" in a).length;
    if (out.length + boxPages.size + lotPages > MAX_PAGES_PER_REQUEST) {
      throw new UnprocessableError(
        `This area needs more than ${MAX_PAGES_PER_REQUEST} pages of pack ${s.root.meta.id}: choose a smaller area`,
        [],
        "area_too_large",
      );
    }
    const seen = new Set<DecodedPage>();
    const sets = await Promise.all(
      areas.map((a) => ("box" in a ? pack.pagesForBox(a.box) : pack.pagesForLot(a.lotId))),
    );
    for (const set of sets) {
      refuseDamaged(set.refused);
      for (const page of set.pages) {
        if (seen.has(page)) continue;
        seen.add(page);
        out.push(pagePack(set.snapshot, page));
      }
    }
  }
  return out;
}
