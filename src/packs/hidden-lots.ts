// Where two packs' lots overlap, one cadastre answers (docs/design.md section 10): a lot under a lot of a pack that
// outranks its own is neither drawn (tiles), counted (search) nor answered at a point (parcelAt).
import { featureLabelPoint } from "../geo/label-point.ts";
import type { Columns } from "../geo/types.ts";
import { featureAt } from "./lookup.ts";
import type { Layer } from "./types.ts";

/**
 * The one rule where two packs' lots overlap (search, tiles): lot `i` of `lots` is left out when its label point lies
 * inside a lot of `higher` (the lots of packs that outrank it), so each place is drawn and counted once.
 */
export function underHigherLot(higher: readonly Layer[], lots: Columns, i: number): boolean {
  const [x, y] = featureLabelPoint(lots, i);
  for (const layer of higher) {
    const b = layer.bbox;
    if (x < b[0] || y < b[1] || x > b[2] || y > b[3]) continue;
    if (featureAt(layer, x, y) >= 0) return true;
  }
  return false;
}
