// The four score components; each is rounded to whole points so they add up to the score exactly.
import {
  BUSHFIRE_PENALTY,
  CONSTRAINTS_MAX,
  DEVELOPMENT_MAX,
  FLOOD_PENALTY,
  FRONTAGE_FULL_M,
  FRONTAGE_POINTS,
  GEOMETRY_MAX,
  HERITAGE_PENALTY,
  REGULARITY_HIGH,
  REGULARITY_LOW,
  REGULARITY_POINTS,
  TRANSPORT_FULL_M,
  TRANSPORT_MAX,
  TRANSPORT_ZERO_M,
  UNKNOWN_YIELD_POINTS,
  YIELD_POINTS,
} from "./constants.ts";
import { clamp, formatDistance, formatMetres, formatNumber, formatPercent, roundTo } from "./format.ts";
import type { NearestStop, ScoreComponent, YieldBasis } from "./types.ts";

const BASIS_TEXT: Record<YieldBasis, string> = {
  apartments: "apartments from floor space",
  subdivision: "one house per subdivided lot",
  dual_occupancy: "dual occupancy",
  single_dwelling: "single dwelling",
  too_small: "lot too small to build on",
  no_fsr: "apartment zone with no FSR mapped",
  not_residential: "zone is not residential",
  no_zone: "no planning zone found",
};

export function yieldPoints(dwellings: number | null, basis: YieldBasis): number {
  if (dwellings === null) return basis === "no_fsr" ? UNKNOWN_YIELD_POINTS : 0;
  for (const row of YIELD_POINTS) if (dwellings >= row.minYield) return row.points;
  return 0;
}

export function developmentComponent(dwellings: number | null, basis: YieldBasis): ScoreComponent {
  const points = yieldPoints(dwellings, basis);
  const what =
    dwellings === null ? "yield not estimated" : `${formatNumber(dwellings)} dwelling${dwellings === 1 ? "" : "s"}`;
  return {
    key: "development_potential",
    label: "Development potential",
    points,
    maxPoints: DEVELOPMENT_MAX,
    detail: `${what} (${BASIS_TEXT[basis]})`,
  };
}

export function constraintsComponent(flood: number, bushfire: number, heritage: number): ScoreComponent {
  const raw = CONSTRAINTS_MAX - FLOOD_PENALTY * flood - BUSHFIRE_PENALTY * bushfire - HERITAGE_PENALTY * heritage;
  const points = roundTo(clamp(raw, 0, CONSTRAINTS_MAX));
  const parts = [
    flood > 0 ? `flood ${formatPercent(flood)}` : null,
    bushfire > 0 ? `bushfire ${formatPercent(bushfire)}` : null,
    heritage > 0 ? `heritage ${formatPercent(heritage)}` : null,
  ].filter((p): p is string => p !== null);
  return {
    key: "site_constraints",
    label: "Site constraints",
    points,
    maxPoints: CONSTRAINTS_MAX,
    detail: parts.length === 0 ? "no flood, bushfire or heritage overlay" : `affected: ${parts.join(", ")}`,
  };
}

export function transportComponent(stop: NearestStop | null): ScoreComponent {
  const d = stop === null ? null : roundTo(stop.distanceM);
  const factor = d === null ? 0 : clamp((TRANSPORT_ZERO_M - d) / (TRANSPORT_ZERO_M - TRANSPORT_FULL_M), 0, 1);
  return {
    key: "transport_access",
    label: "Access to transport",
    points: roundTo(TRANSPORT_MAX * factor),
    maxPoints: TRANSPORT_MAX,
    detail:
      stop === null || d === null
        ? "no public transport stop found nearby"
        : `${formatDistance(d)} to ${stop.name} (${stop.mode})`,
  };
}

export function geometryComponent(frontageM: number, regularity: number): ScoreComponent {
  const frontagePts = FRONTAGE_POINTS * clamp(frontageM / FRONTAGE_FULL_M, 0, 1);
  const regularityPts =
    REGULARITY_POINTS * clamp((regularity - REGULARITY_LOW) / (REGULARITY_HIGH - REGULARITY_LOW), 0, 1);
  return {
    key: "lot_geometry",
    label: "Lot geometry",
    points: roundTo(frontagePts + regularityPts),
    maxPoints: GEOMETRY_MAX,
    detail: `frontage about ${formatMetres(frontageM)}, regularity ${formatNumber(regularity, 2)}`,
  };
}
