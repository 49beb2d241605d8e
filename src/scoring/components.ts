// The score: uplift points (unsaturated: 52 and 77 more dwellings score apart), then each factor (constraints, access, shape) multiplies what is left.
// Each step is rounded to whole points, and each component is what its step took away, so they add up exactly.
import {
  ACCESS_FLOOR,
  ACCESS_FULL_M,
  ACCESS_ZERO_M,
  BUSHFIRE_WEIGHT,
  FLOOD_WEIGHT,
  HERITAGE_AREA_FACTOR,
  HERITAGE_ITEM_FACTOR,
  REGULARITY_HIGH,
  REGULARITY_LOW,
  SHAPE_FLOOR,
  UPLIFT_FLOOR_POINTS,
  UPLIFT_HALVING_MULTIPLE,
  UPLIFT_MAX_POINTS,
} from "./constants.ts";
import { clamp, formatDistance, formatNumber, formatPercent, roundTo } from "./format.ts";
import type { NearestStop, ScoreComponent } from "./types.ts";

// Each eightfold uplift halves the gap to 100: the gap is 50 × n^(−1/3).
const GAP_EXPONENT = -Math.log(2) / Math.log(UPLIFT_HALVING_MULTIPLE);

/** 0 with no uplift; 50 for one unit, then 100 − 50 × n^(−1/3): rising without end, never reaching 100. */
export function upliftPoints(units: number): number {
  if (!(units >= 1)) return 0;
  const gap = (UPLIFT_MAX_POINTS - UPLIFT_FLOOR_POINTS) * units ** GAP_EXPONENT;
  return roundTo(UPLIFT_MAX_POINTS - gap);
}

export interface ConstraintFactors {
  heritage: number;
  flood: number;
  bushfire: number;
  all: number; // the product, rounded to 2 decimals
}

export function constraintFactors(
  heritage: "item" | "conservation_area" | null,
  flood: number,
  bushfire: number,
): ConstraintFactors {
  const h = heritage === "item" ? HERITAGE_ITEM_FACTOR : heritage === "conservation_area" ? HERITAGE_AREA_FACTOR : 1;
  const f = roundTo(1 - FLOOD_WEIGHT * flood, 2);
  const b = roundTo(1 - BUSHFIRE_WEIGHT * bushfire, 2);
  return { heritage: h, flood: f, bushfire: b, all: roundTo(h * f * b, 2) };
}

/** 1 within 400 m, linear to 0.8 at 1,600 m and beyond; 0.8 with no stop known. */
export function accessFactor(distanceM: number | null): number {
  if (distanceM === null) return ACCESS_FLOOR;
  const t = clamp((distanceM - ACCESS_FULL_M) / (ACCESS_ZERO_M - ACCESS_FULL_M), 0, 1);
  return roundTo(1 - (1 - ACCESS_FLOOR) * t, 2);
}

/** 1 at regularity 0.90 or more, linear to 0.85 at 0.50 or less. */
export function shapeFactor(regularity: number): number {
  const t = clamp((REGULARITY_HIGH - regularity) / (REGULARITY_HIGH - REGULARITY_LOW), 0, 1);
  return roundTo(1 - (1 - SHAPE_FLOOR) * t, 2);
}

export interface ScoreSteps {
  components: ScoreComponent[];
  score: number;
}

const times = (f: number): string => `× ${formatNumber(f, 2)}`;

export function scoreSteps(input: {
  units: number;
  unitsText: string;
  constraints: ConstraintFactors;
  heritageText: string | null;
  flood: number;
  bushfire: number;
  access: NearestStop | null;
  regularity: number;
}): ScoreSteps {
  const { constraints: c } = input;
  const p0 = upliftPoints(input.units);
  const p1 = roundTo(p0 * c.all);
  const fa = accessFactor(input.access?.distanceM ?? null);
  const p2 = roundTo(p1 * fa);
  const fs = shapeFactor(input.regularity);
  const score = roundTo(p2 * fs);
  const parts = [
    input.heritageText === null ? null : `${input.heritageText} ${times(c.heritage)}`,
    input.flood > 0 ? `flood ${formatPercent(input.flood)} ${times(c.flood)}` : null,
    input.bushfire > 0 ? `bushfire ${formatPercent(input.bushfire)} ${times(c.bushfire)}` : null,
  ].filter((p): p is string => p !== null);
  const a = input.access;
  const components: ScoreComponent[] = [
    {
      key: "development_potential",
      label: "Development potential",
      points: p0,
      maxPoints: UPLIFT_MAX_POINTS,
      factor: 1,
      detail: input.unitsText,
    },
    {
      key: "site_constraints",
      label: "Site constraints",
      points: p1 - p0,
      maxPoints: 0,
      factor: c.all,
      detail:
        parts.length === 0
          ? "no heritage, flood or bushfire overlay (× 1.00)"
          : `${parts.join(", ")} = ${times(c.all)}`,
    },
    {
      key: "transport_access",
      label: "Access to transport",
      points: p2 - p1,
      maxPoints: 0,
      factor: fa,
      detail:
        a === null
          ? `no station or stop found nearby ${times(fa)}`
          : `${formatDistance(a.distanceM)} to ${a.name} (${a.mode}) ${times(fa)}`,
    },
    {
      key: "lot_geometry",
      label: "Lot geometry",
      points: score - p2,
      maxPoints: 0,
      factor: fs,
      detail: `regularity ${formatNumber(input.regularity, 2)} ${times(fs)}`,
    },
  ];
  return { components, score };
}
