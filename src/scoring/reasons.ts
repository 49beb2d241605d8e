// Plain-English reasons behind a result, in the order a planner would read them.
import { APARTMENT_EFFICIENCY, AVERAGE_UNIT_M2, MIN_BUILDABLE_AREA_M2, REGULARITY_HIGH } from "./constants.ts";
import { formatArea, formatDistance, formatMetres, formatNumber, formatPercent } from "./format.ts";
import type { ControlShare, FeasibilityResult } from "./types.ts";

export const DEMO_DATA_REASON = "These figures come from synthetic demo data, not official planning layers.";

type ReasonInput = Omit<FeasibilityResult, "reasons" | "score" | "rating" | "components" | "modelVersion">;

function zoneLabel(code: string, name: string | null): string {
  return name ? `${code} ${name}` : code;
}

function zoneReason(r: ReasonInput): string {
  const dom = r.dominantZone;
  if (dom === null) return "No planning zone found on this lot, so no development potential is counted.";
  if (r.zones.length === 1) return `Zoned ${zoneLabel(dom.code, dom.name)} (${formatPercent(dom.share)} of the lot).`;
  return `Split zoning: ${r.zones.map((z) => `${z.code} ${formatPercent(z.share)}`).join(", ")}; ${dom.code} is dominant.`;
}

function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

// Said only when a control does not cover the lot as one area: split between areas, or mapped on part of it.
function controlReason(
  what: string,
  areas: readonly ControlShare[],
  show: (v: number) => string,
  applied: string,
): string | null {
  const first = areas[0];
  if (!first || (areas.length === 1 && first.share >= 1)) return null;
  const parts = joinAnd(areas.map((a) => `${show(a.value)} on ${formatPercent(a.share)}`));
  const covered = areas.reduce((sum, a) => sum + a.share, 0);
  const rest = covered < 1 ? ", none mapped on the rest" : "";
  const title = areas.length > 1 ? `Split ${what}` : what.charAt(0).toUpperCase() + what.slice(1);
  return `${title}: ${parts} of the lot${rest}; ${applied}.`;
}

function controlReasons(r: ReasonInput): string[] {
  const c = r.controlAreas;
  const fsr = (v: number) => `${formatNumber(v, 2)}:1`;
  const largest = (v: number | null, show: string) =>
    v === null ? "most of the lot has none, so none applies" : `the ${show} of the largest area is used`;
  const out = [
    controlReason("FSR", c.fsr, fsr, `each applies to its part, ${fsr(r.controls.fsr ?? 0)} over the lot`),
    controlReason(
      "height limit",
      c.heightM,
      (v) => formatMetres(v),
      largest(r.controls.heightM, `${formatMetres(r.controls.heightM ?? 0)} limit`),
    ),
    controlReason(
      "minimum lot size",
      c.minLotSizeM2,
      (v) => formatArea(v),
      largest(r.controls.minLotSizeM2, `${formatArea(r.controls.minLotSizeM2 ?? 0)} minimum`),
    ),
  ];
  return out.filter((s): s is string => s !== null);
}

function areaReasons(r: ReasonInput): string[] {
  const d = r.dualOccupancy;
  if (!d.zoneAllows) return [`Lot area ${formatArea(r.areaM2)}.`];
  const area = d.areaOk
    ? `${formatArea(r.areaM2)}, above the ${formatArea(d.minAreaM2)} dual occupancy minimum.`
    : `${formatArea(r.areaM2)}, below the ${formatArea(d.minAreaM2)} dual occupancy minimum.`;
  const frontage = d.frontageOk
    ? `Estimated frontage ${formatMetres(r.frontageM)} meets the ${formatMetres(d.minFrontageM)} dual occupancy minimum.`
    : `Estimated frontage ${formatMetres(r.frontageM)} is below the ${formatMetres(d.minFrontageM)} dual occupancy minimum.`;
  return [area, frontage];
}

function subdivisionReason(r: ReasonInput): string | null {
  const min = r.controls.minLotSizeM2;
  const lots = r.subdivision.lots;
  if (min === null || lots === null) return null;
  return r.subdivision.possible
    ? `Room for ${formatNumber(lots)} lots at the ${formatArea(min)} minimum lot size: subdivision possible.`
    : `Minimum lot size ${formatArea(min)}: too small to subdivide.`;
}

function yieldReason(r: ReasonInput): string | null {
  const n = r.dwellingYield;
  const code = r.dominantZone?.code ?? "";
  switch (r.yieldBasis) {
    case "apartments":
      return `FSR ${formatNumber(r.controls.fsr ?? 0, 2)}:1 allows about ${formatArea(r.gfaPotentialM2 ?? 0)} of floor space, roughly ${formatNumber(n ?? 0)} apartments (${formatPercent(APARTMENT_EFFICIENCY)} efficiency, ${formatArea(AVERAGE_UNIT_M2)} average).`;
    case "subdivision":
      return `Estimated yield: ${formatNumber(n ?? 0)} dwellings, one house per subdivided lot.`;
    case "dual_occupancy":
      return "Estimated yield: 2 dwellings as a dual occupancy.";
    case "single_dwelling":
      return "Estimated yield: 1 dwelling (single house).";
    case "too_small":
      return `The lot is under ${formatArea(MIN_BUILDABLE_AREA_M2)}, too small for a dwelling.`;
    case "no_fsr":
      return `Zone ${code} allows apartments but no FSR is mapped, so yield was not estimated.`;
    case "not_residential":
      return `Zone ${code} is not a residential zone; no dwelling yield estimated.`;
    case "no_zone":
      return null;
  }
}

function hazardReasons(r: ReasonInput): string[] {
  const out: string[] = [];
  if (r.hazards.flood > 0) out.push(`${formatPercent(r.hazards.flood)} of the lot is flood-affected.`);
  if (r.hazards.bushfire > 0) out.push(`${formatPercent(r.hazards.bushfire)} of the lot is bushfire-prone.`);
  if (out.length === 0) out.push("No flood or bushfire overlay on the lot.");
  if (r.heritage.share > 0) {
    const names = r.heritage.names.length > 0 ? ` (${r.heritage.names.join(", ")})` : "";
    out.push(`${formatPercent(r.heritage.share)} of the lot is under a heritage item${names}.`);
  }
  return out;
}

function transportReason(r: ReasonInput): string {
  const t = r.transport;
  return t === null
    ? "No public transport stop found nearby."
    : `${formatDistance(t.distanceM)} from ${t.name} (${t.mode}).`;
}

function geometryReason(r: ReasonInput): string | null {
  return r.regularity < REGULARITY_HIGH
    ? `Irregular lot shape (regularity ${formatNumber(r.regularity, 2)}, 1.00 is a rectangle).`
    : null;
}

// Control splits are explained when the controls came from their own layers; older packs split only by zone.
export function buildReasons(r: ReasonInput, controlsFromLayers = false): string[] {
  const out: (string | null)[] = [
    r.demoData ? DEMO_DATA_REASON : null,
    zoneReason(r),
    ...(controlsFromLayers ? controlReasons(r) : []),
    ...areaReasons(r),
    subdivisionReason(r),
    yieldReason(r),
    ...hazardReasons(r),
    transportReason(r),
    geometryReason(r),
  ];
  return out.filter((s): s is string => s !== null);
}
