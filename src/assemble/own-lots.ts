// One lot where two packs hold it (docs/design.md section 10): an organisation's own lot, or an imported council's,
// stands where a lower-ranked pack's lot has its label point, so that lot is not counted again as a neighbour (the
// site search already leaves it out of the candidates).
import { type BBox, featureBBox } from "../geo/bbox.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import { pointInFeature } from "../geo/pip.ts";
import type { VisiblePacks } from "../packs/open-pack.ts";
import { OWN_RANK, precedenceOf } from "../packs/precedence.ts";
import type { ReadLot } from "./read-lots.ts";

/** Each visible pack's rank by `${id}@${version}`: the organisation's own first, then by precedence (0 when absent). */
export async function packRanks(packs: VisiblePacks): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const p of packs) {
    if (p.whole) out.set(`${p.whole.id}@${p.whole.version}`, p.own ? OWN_RANK : 0);
    else {
      const meta = (await p.paged.snapshot()).root.meta;
      out.set(`${meta.id}@${meta.version}`, p.own ? OWN_RANK : precedenceOf(meta.info));
    }
  }
  return out;
}

/** `lots` less those (candidates kept) whose label point lies in a lot of a higher-ranked pack read with them. */
export function withoutOutranked(lots: readonly ReadLot[], ranks: ReadonlyMap<string, number>): ReadLot[] {
  const rank = (l: ReadLot) => ranks.get(l.pack) ?? 0;
  const ranked = [...new Set(lots.map(rank))];
  if (ranked.length < 2) return [...lots];
  const lowest = Math.min(...ranked);
  const over = lots
    .filter((l) => rank(l) > lowest)
    .map((l) => ({ l, r: rank(l), box: featureBBox(l.layer, l.index) as BBox }));
  return lots.filter((l) => {
    if (l.lot.candidate) return true;
    const r = rank(l);
    const [x, y] = featureLabelPoint(l.layer, l.index);
    return !over.some(
      (o) =>
        o.r > r &&
        x >= o.box[0] &&
        x <= o.box[2] &&
        y >= o.box[1] &&
        y <= o.box[3] &&
        pointInFeature(o.l.layer, o.l.index, x, y),
    );
  });
}
