// What stands on the lot (issue 50, item 5): as its pack records it, or assumed by zone where nothing is recorded; the
// uplift is counted beyond it, and a strata lot is flagged with what a collective sale takes.
import { EXISTING_DWELLINGS } from "./constants.ts";
import { formatArea, formatNumber } from "./format.ts";
import { COLLECTIVE_SALE, ownersNeeded } from "./rules/strata.ts";
import type { ExistingLotShown, ExistingShown, ExistingUse, ZoneCategory } from "./types.ts";

const whole = (x: number | null | undefined): number | null =>
  typeof x === "number" && Number.isFinite(x) && x >= 0 ? Math.floor(x) : null;

/** What stands as a result shows it: the record when there is one, else a house on residential land and none elsewhere. */
export function existingShown(recorded: ExistingUse | null | undefined, category: ZoneCategory | null): ExistingShown {
  if (recorded === null || recorded === undefined) {
    const residential = category === "apartment" || category === "low_rise";
    if (residential) return { kind: "house", dwellings: EXISTING_DWELLINGS, assumed: true };
    return { kind: category === "employment" ? "employment" : "vacant", dwellings: 0, assumed: true };
  }
  const out: ExistingShown = { kind: recorded.kind, dwellings: whole(recorded.dwellings) ?? 0, assumed: false };
  if (recorded.kind === "strata") {
    // A strata building's units are its lots, and each lot has its owner: a collective sale needs most of them.
    const units = whole(recorded.units) ?? out.dwellings;
    out.dwellings = units;
    out.units = units;
    if (recorded.strataPlan) out.strataPlan = recorded.strataPlan;
    out.collectiveSale = { clause: COLLECTIVE_SALE.clause, owners: units, ownersNeeded: ownersNeeded(units) };
  }
  const floor = whole(recorded.floorSpaceM2);
  if (floor !== null) out.floorSpaceM2 = floor;
  return out;
}

/**
 * What stands on an amalgamation's lots added up, so the uplift counts beyond every dwelling bought: the kind the lots
 * share (else the one holding most dwellings), assumed when any lot's is, and a collective sale per strata scheme.
 */
export function existingOfLots(lots: readonly ExistingLotShown[]): ExistingShown {
  const sum = (f: (l: ExistingLotShown) => number | undefined) => lots.reduce((n, l) => n + (f(l) ?? 0), 0);
  const kinds = new Set(lots.map((l) => l.kind));
  const most = [...lots].sort((a, b) => b.dwellings - a.dwellings)[0];
  const out: ExistingShown = {
    kind: kinds.size === 1 || most === undefined ? (lots[0]?.kind ?? "vacant") : most.kind,
    dwellings: sum((l) => l.dwellings),
    assumed: lots.some((l) => l.assumed),
  };
  const strata = lots.filter((l) => l.collectiveSale !== undefined);
  if (strata.length > 0) {
    out.units = sum((l) => (l.collectiveSale ? l.units : 0));
    if (strata.length === 1 && strata[0]?.strataPlan) out.strataPlan = strata[0].strataPlan;
    out.collectiveSale = {
      clause: COLLECTIVE_SALE.clause,
      owners: sum((l) => l.collectiveSale?.owners),
      ownersNeeded: sum((l) => l.collectiveSale?.ownersNeeded),
    };
  }
  if (lots.some((l) => l.floorSpaceM2 !== undefined)) out.floorSpaceM2 = sum((l) => l.floorSpaceM2);
  out.lots = lots.map((l) => ({ ...l }));
  return out;
}

/** How the sentence on what stands begins: recorded, or not (a report that shows it as a figure leaves it out). */
export const STANDING_PREFIX = "Standing today, as recorded: ";
export const NOT_RECORDED_PREFIX = "What stands on the lot is not recorded: ";

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** "a strata building of 24 units (strata plan SP12345)" */
function standingText(e: ExistingShown): string {
  switch (e.kind) {
    case "house":
      return "a house (1 dwelling)";
    case "dual_occupancy":
      return `a dual occupancy (${plural(e.dwellings, "dwelling", "dwellings")})`;
    case "strata":
      return `a strata building of ${plural(e.units ?? e.dwellings, "unit", "units")}${e.strataPlan ? ` (strata plan ${e.strataPlan})` : ""}`;
    case "vacant":
      return "nothing (the lot is vacant)";
    case "employment":
      return e.floorSpaceM2 === undefined
        ? "employment buildings, their floor space not recorded"
        : `employment buildings of ${formatArea(e.floorSpaceM2)} floor space`;
  }
}

/** The sentence saying what stands and what follows from it for the uplift, or what is assumed and why. */
export function existingReason(e: ExistingShown): string {
  if (e.lots !== undefined) return lotsReason(e, e.lots);
  if (e.assumed) {
    const what =
      e.kind === "house"
        ? `a house (${plural(e.dwellings, "dwelling", "dwellings")}) is assumed to stand, and the uplift is counted beyond it`
        : e.kind === "employment"
          ? "employment buildings and no dwellings are assumed"
          : "no dwelling is assumed to stand";
    return `${NOT_RECORDED_PREFIX}${what}.`;
  }
  const head = `${STANDING_PREFIX}${standingText(e)}`;
  if (e.kind === "vacant") return `${head}; no house to buy out, so every dwelling the controls permit is uplift.`;
  const sale = e.collectiveSale;
  if (e.kind === "strata" && sale !== undefined)
    return `${head}; not a site to buy as a house: acquiring it takes a collective sale, a strata renewal plan supported by the owners of at least ${formatNumber(COLLECTIVE_SALE.ownersShare * 100)}% of its lots (${formatNumber(sale.ownersNeeded)} of ${formatNumber(sale.owners)}) (${sale.clause}).`;
  return `${head}.`;
}

// An amalgamation's sentence: each lot's own, then the sum the uplift is counted beyond.
function lotsReason(e: ExistingShown, lots: readonly ExistingLotShown[]): string {
  const each = lots
    .map((l) => `${l.lotId ?? "a lot"}: ${standingText(l)}${l.assumed ? " (not recorded: assumed by zone)" : ""}`)
    .join("; ");
  const sale = e.collectiveSale
    ? `; its strata lots take a collective sale, supported by the owners of at least ${formatNumber(COLLECTIVE_SALE.ownersShare * 100)}% of each scheme's lots (${formatNumber(e.collectiveSale.ownersNeeded)} of ${formatNumber(e.collectiveSale.owners)}) (${e.collectiveSale.clause})`
    : "";
  return `Standing today on the ${formatNumber(lots.length)} lots: ${each}. The uplift is counted beyond all ${plural(e.dwellings, "dwelling", "dwellings")} bought${sale}.`;
}

/** "the 1 dwelling assumed today", "the 24 dwellings standing today" (`noun` false: "the 1 assumed today"). */
export function beyondText(e: ExistingShown, noun = true): string {
  const word = noun ? ` ${e.dwellings === 1 ? "dwelling" : "dwellings"}` : "";
  return `the ${formatNumber(e.dwellings)}${word} ${e.assumed ? "assumed" : "standing"} today`;
}

/** What stands in a few words, for a report's key figures or an export's cell: "strata, 24 units (SP12345)". */
export function existingShort(e: ExistingShown): string {
  if (e.lots !== undefined)
    return `${formatNumber(e.lots.length)} lots: ${e.lots.map((l) => existingShort({ ...l })).join("; ")}`;
  const sale = e.collectiveSale
    ? `; collective sale: ${e.collectiveSale.ownersNeeded} of ${e.collectiveSale.owners} owners`
    : "";
  const text = {
    house: "a house",
    dual_occupancy: `a dual occupancy (${formatNumber(e.dwellings)})`,
    strata: `strata, ${plural(e.units ?? e.dwellings, "unit", "units")}${e.strataPlan ? ` (${e.strataPlan})` : ""}${sale}`,
    vacant: "vacant",
    employment: e.floorSpaceM2 === undefined ? "employment" : `employment, ${formatArea(e.floorSpaceM2)}`,
  }[e.kind];
  return e.assumed ? `${text} (assumed)` : text;
}
