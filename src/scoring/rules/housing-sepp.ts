// The State Environmental Planning Policy (Housing) 2021's figures the model applies, each with the clause a reason
// cites, the day it commenced and where it applies (docs/scoring.md section 5 gives the sources). The scoring reads
// these and spells no figure of its own. Chapter 6 (low and mid rise housing) was inserted by the Housing SEPP
// Amendment (Low and Mid Rise Housing) 2025 (No 81), commenced 28 February 2025; Chapter 5 (transport oriented
// development) by the 2024 amendment (No 135), commenced 13 May 2024.

/** One non-discretionary standard for a form of housing: its site test and the envelope it allows. */
export type HousingStandard = {
  /** As a reason cites it. */
  readonly clause: string;
  /** ISO date the clause commenced. */
  readonly commenced: string;
  /** The zones it applies in. */
  readonly zones: readonly string[];
  /** Where it applies, in words. */
  readonly where: string;
  readonly minAreaM2: number | null;
  /** Lot width at the front building line. */
  readonly minWidthM: number | null;
  readonly maxFsr: number | null;
  readonly maxHeightM: number | null;
};

const LMR = "a low and mid rise housing area";
const LMR_COMMENCED = "2025-02-28";

/** s 168(2): dual occupancies in R1-R4 in a low and mid rise housing area. */
export const DUAL_OCCUPANCY: HousingStandard = {
  clause: "Housing SEPP 2021 s 168(2)",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2", "R3", "R4"],
  where: LMR,
  minAreaM2: 450,
  minWidthM: 12,
  maxFsr: 0.65,
  maxHeightM: 9.5,
};

/** s 169(3): each lot of a dual occupancy's Torrens subdivision, in R1-R3. */
export const DUAL_OCCUPANCY_SUBDIVISION: HousingStandard = {
  clause: "Housing SEPP 2021 s 169(3)",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2", "R3"],
  where: LMR,
  minAreaM2: 225,
  minWidthM: 6,
  maxFsr: null,
  maxHeightM: null,
};

/** s 172(2): multi dwelling housing (townhouses) in R1-R4. */
export const MULTI_DWELLING: HousingStandard = {
  clause: "Housing SEPP 2021 s 172(2)",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2", "R3", "R4"],
  where: LMR,
  minAreaM2: 600,
  minWidthM: 12,
  maxFsr: 0.7,
  maxHeightM: 9.5,
};

/** s 172(3): multi dwelling housing (terraces) in R1-R4. */
export const TERRACES: HousingStandard = {
  clause: "Housing SEPP 2021 s 172(3)",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2", "R3", "R4"],
  where: LMR,
  minAreaM2: 500,
  minWidthM: 18,
  maxFsr: 0.7,
  maxHeightM: 9.5,
};

/** s 173(3): each lot of a terrace subdivision, in R1-R3 (one dwelling a lot). */
export const TERRACE_LOTS: HousingStandard = {
  clause: "Housing SEPP 2021 s 173(3)",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2", "R3"],
  where: LMR,
  minAreaM2: 165,
  minWidthM: 6,
  maxFsr: null,
  maxHeightM: null,
};

/** s 179(2): residential flat buildings and shop top housing in R1 and R2 (manor-house scale). */
export const LOW_RISE_FLATS: HousingStandard = {
  clause: "Housing SEPP 2021 s 179(2)",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2"],
  where: LMR,
  minAreaM2: 500,
  minWidthM: 12,
  maxFsr: 0.8,
  maxHeightM: 9.5,
};

/** s 180(2): residential flat buildings in R3 and R4 in the inner area (6 storeys at most, s 175(2)). */
export const MID_RISE_INNER: HousingStandard = {
  clause: "Housing SEPP 2021 s 180(2)",
  commenced: LMR_COMMENCED,
  zones: ["R3", "R4"],
  where: "a low and mid rise housing inner area",
  minAreaM2: null,
  minWidthM: null,
  maxFsr: 2.2,
  maxHeightM: 22,
};

/** s 180(3): residential flat buildings in R3 and R4 in the outer area (4 storeys at most, s 176(2)). */
export const MID_RISE_OUTER: HousingStandard = {
  clause: "Housing SEPP 2021 s 180(3)",
  commenced: LMR_COMMENCED,
  zones: ["R3", "R4"],
  where: "a low and mid rise housing outer area",
  minAreaM2: null,
  minWidthM: null,
  maxFsr: 1.5,
  maxHeightM: 17.5,
};

/**
 * Chapter 5: residential flat buildings in a Transport Oriented Development Area (s 151), no minimum lot size and a
 * 21 m minimum lot width; the figures are NSW Planning's summary of the chapter, the section not confirmed here.
 */
export const TOD_APARTMENTS: HousingStandard = {
  clause: "Housing SEPP 2021 Ch 5",
  commenced: "2024-05-13",
  zones: ["R1", "R2", "R3", "R4", "E1", "E2"],
  where: "a Transport Oriented Development Area",
  minAreaM2: null,
  minWidthM: 21,
  maxFsr: 2.5,
  maxHeightM: 22,
};

/**
 * s 175(2) and s 176(2): the storeys a residential flat building may have at the chapter's heights (a basement not
 * counted): 6 at up to 22 m in the inner area, 4 at up to 17.5 m in the outer area. They bind only where the SEPP's
 * height is the one relied on.
 */
export type StoreyLimit = { readonly clause: string; readonly commenced: string; readonly storeys: number };
export const MID_RISE_INNER_STOREYS: StoreyLimit = {
  clause: "Housing SEPP 2021 s 175(2)",
  commenced: LMR_COMMENCED,
  storeys: 6,
};
export const MID_RISE_OUTER_STOREYS: StoreyLimit = {
  clause: "Housing SEPP 2021 s 176(2)",
  commenced: LMR_COMMENCED,
  storeys: 4,
};

/** A state policy that makes a form of housing permissible with consent where an LEP may not. */
export type Permission = {
  readonly clause: string;
  readonly commenced: string;
  /** The zones it permits the form in. */
  readonly zones: readonly string[];
  /** Where it applies, as a reason continues "permitted with consent …". */
  readonly where: string;
};

/**
 * s 166: dual occupancies and semi-detached dwellings are permitted with consent in Zone R2 on land to which Chapter 6
 * applies, inside a low and mid rise housing area or not (the land s 164(1) excludes aside). Stage 1 of the policy made
 * the same permission as s 141C from 1 July 2024 (Lindsay Taylor Lawyers, 1 July 2024); the 2025 amendment moved it here.
 */
export const R2_DUAL_OCCUPANCY: Permission = {
  clause: "Housing SEPP 2021 s 166",
  commenced: LMR_COMMENCED,
  zones: ["R2"],
  where: "on land to which Chapter 6 applies",
};

/**
 * Chapter 6 also makes multi dwelling housing permissible in R2, and residential flat buildings and shop top housing
 * in R2 and R3, in a low and mid rise housing area (Lindsay Taylor Lawyers, 3 March 2025); the sections that do so were
 * not read here, so the chapter is cited.
 */
export const LMR_MULTI_DWELLING: Permission = {
  clause: "Housing SEPP 2021 Ch 6",
  commenced: LMR_COMMENCED,
  zones: ["R2"],
  where: `in ${LMR}`,
};
export const LMR_FLATS: Permission = {
  clause: "Housing SEPP 2021 Ch 6",
  commenced: LMR_COMMENCED,
  zones: ["R2", "R3"],
  where: `in ${LMR}`,
};

/** Chapter 5: residential flat buildings in R1-R4 and E1, shop top housing in E1 and E2, in a TOD area (NSW Planning). */
export const TOD_FLATS: Permission = {
  clause: "Housing SEPP 2021 Ch 5",
  commenced: "2024-05-13",
  zones: ["R1", "R2", "R3", "R4", "E1"],
  where: "in a Transport Oriented Development Area",
};
export const TOD_SHOP_TOP: Permission = {
  clause: "Housing SEPP 2021 Ch 5",
  commenced: "2024-05-13",
  zones: ["E1", "E2"],
  where: "in a Transport Oriented Development Area",
};

/** s 163: the low and mid rise housing area, by walking distance to a Town Centre or a Schedule 11 station. */
export const LMR_AREA = {
  clause: "Housing SEPP 2021 s 163",
  commenced: LMR_COMMENCED,
  zones: ["R1", "R2", "R3", "R4"],
  outerM: 800,
  innerM: 400,
} as const;

/** s 164(1): land Chapter 6 does not apply to (the data shows heritage items, bushfire-prone and flood land). */
export const LMR_EXCLUSIONS = {
  clause: "Housing SEPP 2021 s 164(1)",
  commenced: LMR_COMMENCED,
  /** s 164(1)(e): councils wholly outside the chapter. */
  councils: ["Bathurst Regional", "Blue Mountains", "Hawkesbury", "Wollondilly"],
  /** The exclusions the packs hold no layer for, as a reason lists them (flood land only as a screen: half the lot). */
  notChecked: {
    what: "coastal hazard areas, flood-prone land in the Georges River and Hawkesbury-Nepean catchments, aircraft noise, pipelines, Schedule 12 stations, Accelerated TOD precincts and the exclusion map",
    paragraphs: "(b), (f), (h), (i), (k)-(m)",
  },
} as const;

/** The TOD area's radius around a listed station, as the Department mapped it (its Sites Map, s 151). */
export const TOD_AREA = { clause: "Housing SEPP 2021 s 151", commenced: "2024-05-13", radiusM: 400 } as const;

/** Every standard above, for the citation tests and docs/scoring.md. */
export const HOUSING_STANDARDS: readonly HousingStandard[] = [
  DUAL_OCCUPANCY,
  DUAL_OCCUPANCY_SUBDIVISION,
  MULTI_DWELLING,
  TERRACES,
  TERRACE_LOTS,
  LOW_RISE_FLATS,
  MID_RISE_INNER,
  MID_RISE_OUTER,
  TOD_APARTMENTS,
];

/** A standard's figure that must be set (a standard without it is a programming error). */
export function figure(s: HousingStandard, key: "minAreaM2" | "minWidthM" | "maxFsr" | "maxHeightM"): number {
  const v = s[key];
  if (v === null) throw new Error(`${s.clause} sets no ${key}`);
  return v;
}
