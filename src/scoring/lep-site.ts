// The site test a dual occupancy or multi dwelling housing is held to: the council's LEP figure outside a low and mid
// rise housing area, and inside one the Housing SEPP's non-discretionary standard wherever it is the more permissive
// (docs/scoring.md section 5.6). A figure not confirmed here counts nothing, and the test says to check the LEP.
import { formatArea, formatMetres } from "./format.ts";
import { cmp, type Shown } from "./option-text.ts";
import { figure, type HousingStandard } from "./rules/housing-sepp.ts";
import { FORM_TERMS } from "./rules/land-use.ts";
import { councilLep, type LepForm, type LepLotRule, lepRule } from "./rules/lep-lot-sizes.ts";
import type { SiteFacts } from "./types.ts";

/** Where the lot is, as the LEP's rules need it: its council (null: not known) and whether an HCA is over it. */
export type LepPlace = { readonly lga: string | null; readonly conservationArea: boolean };

/** The facts' council and heritage conservation area; undefined for facts that carry no LGA (older callers). */
export function lepPlaceOf(facts: Pick<SiteFacts, "lga" | "heritageKind">): LepPlace | undefined {
  if (facts.lga === undefined) return undefined;
  return { lga: facts.lga, conservationArea: facts.heritageKind?.conservationArea ?? false };
}

export type SiteTest = {
  /** The lot meets the test that applies, and that test's figure is confirmed. */
  readonly ok: boolean;
  /** What the option cites. */
  readonly clause: string;
  /** The test with its figures: "lot 612 m² ≥ 580 m², frontage 15.2 m ≥ 15 m". */
  readonly text: string;
};

export type SiteTestInput = {
  s: Shown;
  form: LepForm;
  zone: string;
  /** The SEPP's standard for the form (s 168(2), s 172(2)). */
  sepp: HousingStandard;
  lmr: boolean;
  /** Absent: facts from before the LGA reached the score, held to the SEPP's figures as a screen as they were. */
  place: LepPlace | undefined;
  /** What such facts cite outside a low and mid rise housing area. */
  screenClause: string;
};

function measured(s: Shown, minA: number | null, minW: number | null): { ok: boolean; text: string } {
  const parts: string[] = [];
  if (minA !== null) parts.push(`lot ${cmp(s.aText, s.a, minA, formatArea(minA))}`);
  if (minW !== null) parts.push(`frontage ${cmp(s.wText, s.w, minW, formatMetres(minW))}`);
  return { ok: (minA === null || s.a >= minA) && (minW === null || s.w >= minW), text: parts.join(", ") };
}

// The rule's area: the larger figure a heritage conservation area asks, where the clause sets one.
const areaOf = (r: LepLotRule, place: LepPlace): number | null =>
  place.conservationArea && r.conservationAreaMinAreaM2 !== undefined ? r.conservationAreaMinAreaM2 : r.minAreaM2;

const setsFigure = (r: LepLotRule | null): r is LepLotRule =>
  r?.confirmed === true && (r.minAreaM2 !== null || r.minWidthM !== null);

function unconfirmed(i: SiteTestInput, lep: string, clause: string): SiteTest {
  const plainLot = `lot ${i.s.aText}, frontage ${i.s.wText}`;
  return {
    ok: false,
    clause: `${clause}, not confirmed`,
    text: `the ${lep}'s minimum lot size for ${FORM_TERMS[i.form]} is not confirmed here, not counted: check the ${lep}; ${plainLot}`,
  };
}

/** The test the form's site is held to, and the clause that set it. */
export function siteTest(i: SiteTestInput): SiteTest {
  const sepp = measured(i.s, figure(i.sepp, "minAreaM2"), figure(i.sepp, "minWidthM"));
  if (i.place === undefined) return { ok: sepp.ok, clause: i.lmr ? i.sepp.clause : i.screenClause, text: sepp.text };
  const place = i.place;
  const council = place.lga === null ? null : councilLep(place.lga);
  const rule = council === null ? null : lepRule(council, i.form, i.zone);
  const set = setsFigure(rule) ? rule : null;
  const lep = set === null ? null : { clause: set.clause, ...measured(i.s, areaOf(set, place), set.minWidthM) };
  if (i.lmr) {
    // s 168 and s 172 are non-discretionary: a lot meeting them cannot be refused on the LEP's figure, nor one meeting it.
    if (sepp.ok) return { ok: true, clause: i.sepp.clause, text: sepp.text };
    if (lep?.ok) return lep;
    return {
      ok: false,
      clause: i.sepp.clause,
      text: lep === null ? sepp.text : `${sepp.text}; ${lep.clause}: ${lep.text}`,
    };
  }
  if (lep !== null) return lep;
  // The LEP sets no figure for the form: the SEPP's, which apply in the areas only, stand in as a screen.
  if (rule?.confirmed)
    return { ok: sepp.ok, clause: `${rule.clause} sets none; ${i.sepp.clause} figures as a screen`, text: sepp.text };
  if (council !== null) return unconfirmed(i, council.lep, rule?.clause ?? council.lep);
  if (place.lga !== null) return unconfirmed(i, `${place.lga} LEP`, `${place.lga} LEP`);
  return unconfirmed(i, "LEP", "the council's LEP");
}
