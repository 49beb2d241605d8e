// What an alert compares of a lot between two versions of a pack: its main zone, the controls over most of it,
// its overlays to the whole percent, and where it lies (to tell a subdivision from a removal).
import type { BBox } from "../geo/bbox.ts";
import type { LotRecord } from "../packs/paged/index.ts";
import type { ControlShare } from "../scoring/types.ts";

export type LotState = {
  lotId: string;
  // Its street address, when the pack has one: notifications name the lot by it.
  address: string | null;
  bbox: BBox;
  // A point on the lot (its label point).
  point: [number, number];
  zone: string | null;
  fsr: number | null;
  heightM: number | null;
  minLotM2: number | null;
  // Shares in whole percent, as the facts panel shows them.
  flood: number;
  bushfire: number;
  heritage: number;
};

// The control area covering most of the lot; ties go to the larger value, so the answer never depends on order.
function mainValue(list: readonly ControlShare[] | undefined): number | null | undefined {
  if (!list) return undefined;
  let best: ControlShare | null = null;
  for (const c of list) if (!best || c.share > best.share || (c.share === best.share && c.value > best.value)) best = c;
  return best ? best.value : null;
}

const percent = (share: number): number => Math.round(share * 100);

/** The lot's state from its precomputed record (a v2 page, or lotRecordFrom over v1 overlays). */
export function lotState(
  record: LotRecord,
  lotId: string,
  bbox: BBox,
  point: [number, number],
  address: string | null = null,
): LotState {
  const f = record.facts;
  const main = f.zones.reduce<(typeof f.zones)[number] | null>(
    (best, z) => (!best || z.share > best.share || (z.share === best.share && z.code < best.code) ? z : best),
    null,
  );
  const pick = (list: readonly ControlShare[] | undefined, own: number | null | undefined) => {
    const v = mainValue(list);
    return v === undefined ? (own ?? null) : v;
  };
  return {
    lotId,
    address,
    bbox,
    point,
    zone: main?.code ?? null,
    fsr: pick(f.controls?.fsr, main?.fsr),
    heightM: pick(f.controls?.heightM, main?.heightM),
    minLotM2: pick(f.controls?.minLotSizeM2, main?.minLotSizeM2),
    flood: percent(f.hazards.flood),
    bushfire: percent(f.hazards.bushfire),
    heritage: percent(f.heritageShare),
  };
}
