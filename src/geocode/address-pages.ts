// The pages of v2 packs a typed address may be on: those of the suburb it ends with, when the gazetteer knows it.
import { requestPages } from "../packs/request-pages.ts";
import { type PagedPack, pagePack, type ReadBudget } from "../packs/paged/index.ts";
import { pagedPacks, type VisiblePacks } from "../packs/open-pack.ts";
import type { Pack } from "../packs/types.ts";
import { startsWithHouseNumber } from "./address-key.ts";
import { type GeocodeResult, geocode, normaliseName, stateCode } from "./gazetteer.ts";

/** The suburb a typed address ends with ("23 pembroke st north epping nsw 2121": North Epping), or null. */
export function trailingSuburb(packs: readonly Pack[], query: string): GeocodeResult | null {
  const words = normaliseName(query).split(" ");
  if (words.length > 2 && /^\d{4}$/.test(words[words.length - 1] as string)) words.pop();
  let state = "";
  for (let k = Math.min(3, words.length - 2); k >= 1 && state === ""; k--) {
    const code = stateCode(words.slice(-k).join(" "));
    if (code) {
      state = ` ${code}`;
      words.splice(words.length - k, k);
    }
  }
  // Longest first, keeping a house number and a street word before it: "st ives" before "ives".
  for (let k = Math.min(3, words.length - 2); k >= 1; k--) {
    const hit = geocode(packs, words.slice(-k).join(" ") + state);
    if (hit) return hit;
  }
  return null;
}

/**
 * The pages an address search reads, kept apart so the organisation's lots can be put before every public pack;
 * `skipped`: packs over the suburb left unread because the budget had too few pages left.
 */
export type AddressPages = { own: Pack[]; public: Pack[]; skipped: number };

/**
 * The pages of each v2 pack over the suburb a typed address names, as small packs: the organisation's packs first,
 * then the public ones. None (and no page read) when the query does not start with a house number or end with a
 * known suburb. A pack needing more than the MAX_PAGES_PER_REQUEST pages left (counted over all packs, the
 * organisation's first) is skipped (counted), and a damaged page is left out (the reader logs it): suggestions are hints.
 */
export async function addressPages(
  v: VisiblePacks,
  packs: readonly Pack[],
  query: string,
  budget: ReadBudget = requestPages(),
): Promise<AddressPages> {
  const out: AddressPages = { own: [], public: [], skipped: 0 };
  if (!startsWithHouseNumber(query)) return out;
  const suburb = trailingSuburb(packs, query);
  if (!suburb) return out;
  const read = async (paged: readonly PagedPack[], into: Pack[]) => {
    for (const pack of paged) {
      // Counted from the root before any page is read, so a suburb too large costs no reads.
      const need = pack.pagesInBox(await pack.snapshot(), suburb.bbox).length;
      if (need === 0) continue;
      if (budget.over({ pages: need })) {
        out.skipped++;
        continue;
      }
      budget.spend({ pages: need });
      const set = await pack.pagesForBox(suburb.bbox);
      for (const page of set.pages) into.push(pagePack(set.snapshot, page));
    }
  };
  await read(pagedPacks(v, true), out.own);
  await read(pagedPacks(v, false), out.public);
  return out;
}
