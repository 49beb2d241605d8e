// What a parcel's own fields say about it beyond its outline: what stands on it (issue 50, item 5: the world records it,
// an upload may carry it) and its frontage measured on the street (the world's lots carry it).
import type { Props } from "../packs/types.ts";
import type { ExistingKind, ExistingUse, LotPolygon, LotShapeShown } from "../scoring/types.ts";
import { shownShape } from "../scoring/geometry.ts";
import { roundTo } from "../scoring/format.ts";
import type { AreaGeometry } from "../geo/types.ts";

// The kinds as written in a file ("Dual occupancy", "dual-occupancy", "duplex"), to the answer's names.
const KINDS: Readonly<Record<string, ExistingKind>> = {
  house: "house",
  dwelling_house: "house",
  dual_occupancy: "dual_occupancy",
  duplex: "dual_occupancy",
  strata: "strata",
  vacant: "vacant",
  employment: "employment",
};
// A kind's dwellings when the file gives none: a strata building's are its units.
const DWELLINGS: Readonly<Record<ExistingKind, number>> = {
  house: 1,
  dual_occupancy: 2,
  strata: 0,
  vacant: 0,
  employment: 0,
};

const count = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null);

/** What stands on the parcel as its fields record it; null where they record nothing usable (then it is assumed). */
export function existingFromProps(props: Props): ExistingUse | null {
  const raw = props.existing_use;
  if (typeof raw !== "string") return null;
  const kind =
    KINDS[
      raw
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, "_")
    ];
  if (kind === undefined) return null;
  const units = count(props.units);
  const dwellings = count(props.dwellings);
  const plan =
    typeof props.strata_plan === "string" && props.strata_plan.trim() !== "" ? props.strata_plan.trim() : null;
  const floor = count(props.floor_space_m2);
  if (kind === "strata") {
    // A strata building's units are its owners: without them what acquiring it takes cannot be said.
    const n = units ?? dwellings;
    if (n === null) return null;
    return { kind, dwellings: Math.floor(n), units: Math.floor(n), strataPlan: plan, floorSpaceM2: floor };
  }
  return {
    kind,
    dwellings: Math.floor(dwellings ?? DWELLINGS[kind]),
    strataPlan: null,
    units: null,
    floorSpaceM2: floor,
  };
}

/** The lot's shape with its frontage as its fields measured it on the street; null where they carry none. */
export function streetShape(props: Props, polygon: AreaGeometry): LotShapeShown | null {
  const f = props.frontage_m;
  if (typeof f !== "number" || !Number.isFinite(f) || f <= 0) return null;
  return {
    frontageM: roundTo(f, 1),
    regularity: shownShape(polygon as LotPolygon).regularity,
    frontageBasis: "street",
  };
}
