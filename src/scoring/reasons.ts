// Plain-English reasons behind a result, in the order a planner would read them.
import {
  ACCESS_FLOOR,
  ACCESS_FULL_M,
  ACCESS_ZERO_M,
  BUSHFIRE_WEIGHT,
  FLOOD_WEIGHT,
  HERITAGE_AREA_FACTOR,
  HERITAGE_ITEM_FACTOR,
  LMR_ZONES,
  MIN_BUILDABLE_AREA_M2,
  REGULARITY_HIGH,
  RETIRED_ZONES,
} from "./constants.ts";
import { beyondText, existingReason } from "./existing.ts";
import { formatArea, formatDistance, formatMetres, formatNumber, formatPercent, roundTo } from "./format.ts";
import { FORM_OF_BASIS, type LandUse, landUseSentence } from "./permissibility.ts";
import { policyReason } from "./policy.ts";
import { currentZone } from "./zones.ts";
import type { ControlShare, FeasibilityResult, ScoreComponent, YieldBasis } from "./types.ts";

export const DEMO_DATA_REASON = "These figures come from synthetic demo data, not official planning layers.";

type ReasonInput = Omit<FeasibilityResult, "reasons" | "score" | "rating" | "components" | "modelVersion">;

function zoneLabel(code: string, name: string | null): string {
  return name ? `${code} ${name}` : code;
}

function zoneReason(r: ReasonInput): string {
  const dom = r.dominantZone;
  if (dom === null) return "No planning zone found on this lot, so no development potential is counted.";
  const now = RETIRED_ZONES[dom.code];
  const retired = now ? ` ${dom.code} was retired on 26 April 2023: read as ${now}.` : "";
  if (r.zones.length === 1)
    return `Zoned ${zoneLabel(dom.code, dom.name)} (${formatPercent(dom.share)} of the lot).${retired}`;
  return `Split zoning: ${r.zones.map((z) => `${z.code} ${formatPercent(z.share)}`).join(", ")}; ${dom.code} is dominant.${retired}`;
}

function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

// Said only when a control does not cover the lot as one area: split between areas, or mapped on part of it
// (`applied` is only formatted then: most lots have one area per control).
function controlReason(
  what: string,
  areas: readonly ControlShare[],
  show: (v: number) => string,
  applied: () => string,
): string | null {
  const first = areas[0];
  if (!first || (areas.length === 1 && first.share >= 1)) return null;
  const parts = joinAnd(areas.map((a) => `${show(a.value)} on ${formatPercent(a.share)}`));
  const covered = areas.reduce((sum, a) => sum + a.share, 0);
  const rest = covered < 1 ? ", none mapped on the rest" : "";
  const title = areas.length > 1 ? `Split ${what}` : what.charAt(0).toUpperCase() + what.slice(1);
  return `${title}: ${parts} of the lot${rest}; ${applied()}.`;
}

function controlReasons(r: ReasonInput): string[] {
  const c = r.controlAreas;
  const fsr = (v: number) => `${formatNumber(v, 2)}:1`;
  const largest = (v: number | null, show: string) =>
    v === null ? "most of the lot has none, so none applies" : `the ${show} of the largest area is used`;
  const out = [
    controlReason("FSR", c.fsr, fsr, () => `each applies to its part, ${fsr(r.controls.fsr ?? 0)} over the lot`),
    controlReason(
      "height limit",
      c.heightM,
      (v) => formatMetres(v),
      () => largest(r.controls.heightM, `${formatMetres(r.controls.heightM ?? 0)} limit`),
    ),
    controlReason(
      "minimum lot size",
      c.minLotSizeM2,
      (v) => formatArea(v),
      () => largest(r.controls.minLotSizeM2, `${formatArea(r.controls.minLotSizeM2 ?? 0)} minimum`),
    ),
  ];
  return out.filter((s): s is string => s !== null);
}

const OPTION_LABEL: Readonly<Partial<Record<YieldBasis, string>>> = {
  subdivision: "Subdivision",
  dual_occupancy: "Dual occupancy",
  multi_dwelling: "Townhouses (multi dwelling housing)",
  terraces: "Terraces",
  low_rise_apartments: "Low-rise apartments (manor-house scale, 9.5 m)",
  mid_rise_apartments: "Mid-rise apartments",
  tod_apartments: "Apartments under the TOD controls",
  apartments: "Apartments under the LEP",
  shop_top_housing: "Shop top housing (shops below, apartments above)",
  floor_space: "Floor space",
};

// Labels as the uplift sentence uses them, mid-sentence ("mid-rise apartments"), made once.
const OPTION_LABEL_MID: Readonly<Partial<Record<string, string>>> = Object.fromEntries(
  Object.entries(OPTION_LABEL).map(([basis, label]) => [basis, lowerFirst(label)]),
);

function lowerFirst(label: string): string {
  return label.replace(/^[A-Z][a-z]/, (m) => m.toLowerCase());
}

// The model's fixed figures as the reasons show them, formatted once.
const MIN_BUILDABLE_TEXT = formatArea(MIN_BUILDABLE_AREA_M2);
const HERITAGE_ITEM_TEXT = formatNumber(HERITAGE_ITEM_FACTOR, 2);
const HERITAGE_AREA_TEXT = formatNumber(HERITAGE_AREA_FACTOR, 2);
const FLOOD_WEIGHT_TEXT = formatNumber(FLOOD_WEIGHT, 2);
const BUSHFIRE_WEIGHT_TEXT = formatNumber(BUSHFIRE_WEIGHT, 2);
const ACCESS_TEXT = `(1 within ${formatDistance(ACCESS_FULL_M)}, ${formatNumber(ACCESS_FLOOR, 2)} from ${formatDistance(ACCESS_ZERO_M)})`;

// Each option tried, with the rule and its figures; the policy's name where a state policy set it. A form the land use
// leaves to the council is "not counted" rather than refused.
function optionReasons(r: ReasonInput, landUse: LandUse | null): string[] {
  return r.yieldOptions.map((o) => {
    const label = OPTION_LABEL[o.basis] ?? o.basis;
    const form = FORM_OF_BASIS[o.basis];
    const counted = landUse === null || form === undefined || landUse.forms[form].permitted;
    return `${label}${o.permitted ? " permitted" : counted ? " not permitted" : " not counted"} (${o.clause}): ${o.rule}.`;
  });
}

// Why nothing is counted where no housing is: the land use, or the zone the model builds no housing in.
function notResidentialReason(r: ReasonInput, code: string, landUse: LandUse | null): string {
  if (landUse?.table === null || landUse === null)
    return `Zone ${code} is not a Standard Instrument zone the model has a land use table for: no housing is counted; check the LEP.`;
  if (!landUse.housingPermitted) {
    if (r.zoneCategory === "employment")
      return `Zone ${code} is employment land on which the Standard Instrument permits no housing: not assessed for housing, so the site is rated low.`;
    const forms = Object.values(landUse.table.forms);
    return forms.includes("council_optional")
      ? `Zone ${code} permits no housing unless the council's LEP adds it: none is counted (check the LEP), so the site is rated low.`
      : `Zone ${code} permits no housing: no housing yield, so the site is rated low.`;
  }
  return `Zone ${code} permits housing, but the model counts no uplift in rural, conservation and special purpose zones: the site is rated low.`;
}

function upliftReason(r: ReasonInput, landUse: LandUse | null): string | null {
  const code = r.dominantZone?.code ?? "";
  switch (r.yieldBasis) {
    case "no_zone":
      return null;
    case "not_residential":
      return notResidentialReason(r, code, landUse);
    case "no_fsr":
      return `Zone ${code} has no FSR mapped, so the uplift cannot be read from the controls: rated low until the LEP is checked.`;
    case "too_small":
      return `The lot is under ${MIN_BUILDABLE_TEXT}: no uplift beyond ${beyondText(r.existing)}, so the site is rated low.`;
    case "floor_space":
      return null;
    case "shop_top_housing":
      // Employment land is not scored on housing (docs/design.md section 13): its shop top housing is shown only.
      if (r.zoneCategory === "employment") {
        const n = r.dwellingYield ?? 0;
        const shown =
          n > 0
            ? `; its shop top housing (${formatNumber(n)} ${n === 1 ? "dwelling" : "dwellings"} above the shops) is shown for information only`
            : "";
        return `Zone ${code} is employment land: not assessed for housing, so rated low${shown}.`;
      }
      if ((r.dwellingYield ?? 0) <= 0)
        return "No uplift: the controls leave no floor space for housing above the ground floor shops, so the site is rated low.";
      break;
    case "single_dwelling":
      // A vacant lot gains the house it may hold; elsewhere a house is no more than stands.
      if ((r.upliftDwellings ?? 0) > 0)
        return `Uplift: ${formatNumber(r.dwellingYield ?? 0)} dwelling as a house, ${formatNumber(r.upliftDwellings ?? 0)} beyond ${beyondText(r.existing)}.`;
      if (r.existing.assumed)
        return `No uplift: the controls permit no more than the ${formatNumber(r.existing.dwellings)} dwelling assumed to stand today, so the site is rated low.`;
      return `No uplift: the controls permit no more than a house, no more than ${beyondText(r.existing)}, so the site is rated low.`;
  }
  const n = r.upliftDwellings ?? 0;
  const label = OPTION_LABEL_MID[r.yieldBasis] ?? lowerFirst(r.yieldBasis);
  const yieldText = `${formatNumber(r.dwellingYield ?? 0)} dwellings as ${label}`;
  // More stands than the controls permit (a strata building): no uplift, and the reason says so.
  if (n === 0) return `No uplift: ${yieldText}, no more than ${beyondText(r.existing)}, so the site is rated low.`;
  return `Uplift: ${yieldText}, ${formatNumber(n)} beyond ${beyondText(r.existing, r.existing.assumed === false)}.`;
}

function factorOf(components: readonly ScoreComponent[], key: ScoreComponent["key"]): number {
  return components.find((c) => c.key === key)?.factor ?? 1;
}

function hazardReasons(r: ReasonInput): string[] {
  const out: string[] = [];
  const f = (x: number) => formatNumber(x, 2);
  if (r.heritageKind === "item") {
    const names = r.heritage.names.length > 0 ? ` (${r.heritage.names.join(", ")})` : "";
    out.push(`Heritage item on the lot${names}: potential × ${HERITAGE_ITEM_TEXT}.`);
  } else if (r.heritageKind === "conservation_area") {
    const names = r.heritage.names.length > 0 ? ` (${r.heritage.names.join(", ")})` : "";
    out.push(`Heritage conservation area over the lot${names}: potential × ${HERITAGE_AREA_TEXT}.`);
  }
  if (r.hazards.flood > 0)
    out.push(
      `${formatPercent(r.hazards.flood)} of the lot is flood-affected: potential × ${f(roundTo(1 - FLOOD_WEIGHT * r.hazards.flood, 2))} (1 − ${FLOOD_WEIGHT_TEXT} × ${f(r.hazards.flood)}).`,
    );
  if (r.hazards.bushfire > 0)
    out.push(
      `${formatPercent(r.hazards.bushfire)} of the lot is bushfire-prone: potential × ${f(roundTo(1 - BUSHFIRE_WEIGHT * r.hazards.bushfire, 2))} (1 − ${BUSHFIRE_WEIGHT_TEXT} × ${f(r.hazards.bushfire)}).`,
    );
  if (out.length === 0) out.push("No heritage, flood or bushfire overlay on the lot.");
  return out;
}

function transportReason(r: ReasonInput, components: readonly ScoreComponent[]): string {
  const fa = formatNumber(factorOf(components, "transport_access"), 2);
  const s = r.station ?? r.transport;
  if (s === null) return `No station or stop found nearby: access × ${fa}.`;
  return `${formatDistance(s.distanceM)} from ${s.name} (${s.mode}): access × ${fa} ${ACCESS_TEXT}.`;
}

function geometryReason(r: ReasonInput, components: readonly ScoreComponent[]): string | null {
  return r.regularity < REGULARITY_HIGH
    ? `Irregular lot shape (regularity ${formatNumber(r.regularity, 2)}, 1.00 is a rectangle): × ${formatNumber(factorOf(components, "lot_geometry"), 2)}.`
    : null;
}

/** The land use behind the result, and why Chapter 6 of the Housing SEPP does not apply to the lot (if it does not). */
export interface LandUseShown {
  landUse: LandUse;
  chapter6ExcludedBy: string | null;
}

// Whether Chapter 6's areas apply in the lot's main zone: the reasons say why a residential lot is outside one.
const lmrZoneOf = (r: ReasonInput): boolean =>
  r.dominantZone !== null && LMR_ZONES.includes(currentZone(r.dominantZone.code));

// Control splits are explained when the controls came from their own layers; older packs split only by zone.
export function buildReasons(
  r: ReasonInput,
  components: readonly ScoreComponent[],
  controlsFromLayers = false,
  use: LandUseShown | null = null,
): string[] {
  const out: string[] = [];
  const add = (s: string | null) => {
    if (s !== null) out.push(s);
  };
  if (r.demoData) out.push(DEMO_DATA_REASON);
  out.push(zoneReason(r));
  if (controlsFromLayers) for (const s of controlReasons(r)) out.push(s);
  out.push(
    r.frontageBasis === "street"
      ? `Lot ${formatArea(r.areaM2)}, frontage ${formatMetres(r.frontageM)} (its boundary on the street).`
      : `Lot ${formatArea(r.areaM2)}, estimated frontage ${formatMetres(r.frontageM)} (no street known: the shorter side of the smallest rectangle around it).`,
  );
  out.push(existingReason(r.existing));
  add(
    policyReason(
      { ...r.policy, via: r.policyArea.via, exclusions: r.policyArea.excludedBy, lmrZone: lmrZoneOf(r) },
      r.reach,
    ),
  );
  if (use !== null) add(landUseSentence(use.landUse, use.chapter6ExcludedBy));
  for (const s of optionReasons(r, use?.landUse ?? null)) out.push(s);
  add(upliftReason(r, use?.landUse ?? null));
  for (const s of hazardReasons(r)) out.push(s);
  out.push(transportReason(r, components));
  add(geometryReason(r, components));
  return out;
}
