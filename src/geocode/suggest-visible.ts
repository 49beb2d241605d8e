// Suggestions over what a caller sees: lots by id and by address in the organisation's packs before the public ones.
import { normaliseLotId } from "../packs/lot-id.ts";
import type { VisiblePacks } from "../packs/open-pack.ts";
import { joinVisible } from "../packs/visible.ts";
import { addressPages } from "./address-pages.ts";
import { type Suggestion, suggest } from "./suggest.ts";

/** Up to `limit` suggestions for `query` over `v` (public only when the caller has no organisation). */
export async function suggestVisible(v: VisiblePacks, query: string, limit: number): Promise<Suggestion[]> {
  // A lot id is looked up in v2 packs by their lot-id index: one index page and one data page.
  const packs = await joinVisible(v, normaliseLotId(query) !== null ? [{ lotId: query }] : []);
  // An address is looked up over the pages of the suburb it ends with; equal addresses keep pack order, so own first.
  const pages = await addressPages(v, packs, query);
  return suggest([...pages.own, ...packs, ...pages.public], query, limit);
}
