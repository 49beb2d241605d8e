// One lot where two packs hold it (docs/design.md section 10): an organisation's own lot, or an imported council's,
// stands where a lower-ranked pack's lot has its label point, so that lot is not counted again as a neighbour (the
// site search already leaves it out of the candidates). The rule is the search's and the tiles' (underHigherLot).
import type { VisiblePacks } from "../packs/open-pack.ts";
import { OWN_RANK, rankedPaged, underHigherLot } from "../packs/precedence.ts";
import type { Layer } from "../packs/types.ts";
import type { ReadLot } from "./read-lots.ts";

/** Each visible pack's rank by `${id}@${version}`: the organisation's own first, then by precedence (0 when absent). */
export async function packRanks(packs: VisiblePacks): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  // A pack held whole has no root to carry a precedence: only an organisation's own outranks the public ones.
  for (const p of packs) if (p.whole) out.set(`${p.whole.id}@${p.whole.version}`, p.own ? OWN_RANK : 0);
  for (const r of await rankedPaged(packs)) {
    const meta = (await r.pack.snapshot()).root.meta;
    out.set(`${meta.id}@${meta.version}`, r.rank);
  }
  return out;
}

/** `lots` less those (candidates kept) whose label point lies in a lot of a higher-ranked pack's pages read with them. */
export function withoutOutranked(lots: readonly ReadLot[], ranks: ReadonlyMap<string, number>): ReadLot[] {
  const rank = (l: ReadLot) => ranks.get(l.pack) ?? 0;
  const layers = new Map<Layer, number>();
  for (const l of lots) layers.set(l.layer, rank(l));
  if (new Set(layers.values()).size < 2) return [...lots];
  // The layers (pages, or packs held whole) above each rank, found once a rank.
  const above = new Map<number, Layer[]>();
  const higherThan = (r: number) => {
    let list = above.get(r);
    if (!list) {
      list = [...layers].filter(([, lr]) => lr > r).map(([layer]) => layer);
      above.set(r, list);
    }
    return list;
  };
  return lots.filter((l) => l.lot.candidate || !underHigherLot(higherThan(rank(l)), l.layer, l.index));
}
