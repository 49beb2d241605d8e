// Input and output shapes of the feasibility model; the spatial layer fills SiteFacts.

export interface ZoneShare {
  code: string;
  name: string | null;
  share: number;
  fsr: number | null;
  heightM: number | null;
  minLotSizeM2: number | null;
}

export interface LotPolygon {
  type: "Polygon" | "MultiPolygon";
  coordinates: number[][][] | number[][][][];
}

// One value of a planning control (FSR, height, minimum lot size) and the share of the lot it covers.
export interface ControlShare {
  value: number;
  share: number; // 0..1
  label: string | null; // the map's own class, e.g. "21-22.9" for a height band
}

// Each control as mapped on its own layer; a lot straddling two areas has two entries.
export interface ControlAreas {
  fsr: ControlShare[];
  heightM: ControlShare[];
  minLotSizeM2: ControlShare[];
}

export interface NearestStop {
  name: string;
  mode: string;
  distanceM: number;
}

export interface SiteFacts {
  lotId: string | null;
  areaM2: number;
  polygon: LotPolygon; // WGS84 lon/lat
  zones: ZoneShare[]; // every zone on the lot with its share 0..1
  // Controls from their own layers (NSW publishes FSR, height and lot size separately). When absent (older
  // packs), each zone's own fsr, heightM and minLotSizeM2 are the controls.
  controls?: ControlAreas;
  hazards: { flood: number; bushfire: number }; // share of lot area 0..1
  heritageShare: number; // share 0..1 under a heritage item or conservation area
  heritageNames: string[];
  nearestStop: NearestStop | null;
  demoData: boolean; // facts came from synthetic demo layers
  // What the heritage layer says is on the lot; absent (older facts): any heritage share counts as an item.
  heritageKind?: HeritageKind;
  // The nearest railway, metro or light rail station; absent: the nearest stop when it is one.
  nearestStation?: NearestStop | null;
  // Metres to the nearest E1, E2 or MU1 land (0 inside it); null when none is near; absent: unknown. Shown, not a policy:
  // a town centre is designated (docs/design.md section 10), and `reach` carries it.
  centreDistanceM?: number | null;
  // The nearest Schedule 11 station and the nearest designated town centre, walked over the streets when the pack was
  // built (a lots pack of the world); absent: not measured, so the policy reads the nearest station by straight line.
  reach?: Reach;
  // The lot's shape as a score shows it, measured when its pack was built; absent: measured from `polygon`.
  shape?: LotShapeShown;
  // What stands on the lot; absent or null: not recorded, so assumed by zone.
  existing?: ExistingUse | null;
  // The local government area, whose LEP sets dual occupancy and multi dwelling lot sizes; null: not known; absent:
  // facts from before it reached the score (the SEPP's figures as a screen).
  lga?: string | null;
  // An amalgamation scored as one site (docs/design.md section 14): its lots, and what stands on each of them.
  amalgamation?: AmalgamationFacts;
}

/** What stands on one lot of an amalgamation, as a result shows it. */
export type ExistingLotShown = Omit<ExistingShown, "lots"> & { lotId: string | null };

/** A group of adjoining lots scored as one site: the facts are the main lot's, the area and outline the group's. */
export interface AmalgamationFacts {
  lotIds: string[];
  owners: number; // a strata lot counts as its units
  mainLotId: string | null; // the lot with the largest share of the area, whose zone and controls apply
  mainShare: number; // 0..1
  outsideMainZone: { lotId: string; zone: string | null }[]; // lots whose own zone is not the main lot's
  existing: ExistingLotShown[]; // what stands on each lot, in lotIds order
}

/** docs/design.md section 14's amalgamation as a result shows it. */
export type AmalgamationShown = Omit<AmalgamationFacts, "existing"> & { lots: number };

/** A place the policy measures to: its name, the walking distance over the streets (null: not measured) and the
 * straight-line distance to the same place, in metres. */
export interface PlaceReach {
  name: string;
  walkingM: number | null;
  straightM: number;
}

export interface Reach {
  station: PlaceReach | null; // the nearest station listed in Schedule 11, by walking
  centre: PlaceReach | null; // the nearest designated town centre, by walking
}

export interface LotShapeShown {
  frontageM: number; // its boundary on the street, or (estimated) the minimum-area rectangle's shorter side, to 0.1 m
  regularity: number; // the lot's area over that rectangle's, 0..1 to 0.01
  frontageBasis?: FrontageBasis; // absent: estimated
}

// How the frontage was measured: the lot's boundary on a street, or estimated from its shape where no street is known.
export type FrontageBasis = "street" | "estimated";

export type ExistingKind = "house" | "dual_occupancy" | "strata" | "vacant" | "employment";

/** What stands on a lot as its pack records it. */
export interface ExistingUse {
  kind: ExistingKind;
  dwellings: number;
  strataPlan?: string | null; // e.g. "SP12345"
  units?: number | null; // a strata building's units: its lots, so its owners
  floorSpaceM2?: number | null; // an employment building's floor space
}

/** What a collective sale of a strata lot takes: the owners of a share of its lots supporting it. */
export interface CollectiveSale {
  clause: string;
  owners: number;
  ownersNeeded: number;
}

/** What stands on the lot as a result shows it: as recorded, or assumed where nothing is recorded. */
export interface ExistingShown {
  kind: ExistingKind;
  dwellings: number;
  strataPlan?: string;
  units?: number;
  floorSpaceM2?: number;
  collectiveSale?: CollectiveSale;
  assumed: boolean;
  lots?: ExistingLotShown[]; // an amalgamation's: what stands on each of its lots (the figures above are their sums)
}

export interface HeritageKind {
  item: boolean; // a heritage item on the lot
  conservationArea: boolean; // a heritage conservation area over it
}

export type Rating = "high" | "medium" | "low";

export type ComponentKey = "development_potential" | "site_constraints" | "transport_access" | "lot_geometry";

// Components add up to the score: the potential's points, then what each factor took away (zero or less).
export interface ScoreComponent {
  key: ComponentKey;
  label: string;
  points: number;
  maxPoints: number;
  factor: number; // 1 for the potential; the multiplier this step applied otherwise
  detail: string;
}

// How the dwelling yield was estimated.
export type YieldBasis =
  | "apartments"
  | "tod_apartments"
  | "mid_rise_apartments"
  | "low_rise_apartments"
  | "terraces"
  | "multi_dwelling"
  | "shop_top_housing"
  | "subdivision"
  | "dual_occupancy"
  | "single_dwelling"
  | "too_small"
  | "floor_space" // feasibility-v2's employment floor space; kept so results stored under v2 still read
  | "no_fsr"
  | "not_residential"
  | "no_zone";

// "employment": E1-E5, SP4, W4; housing only as shop top housing where their land use table permits it.
export type ZoneCategory = "apartment" | "low_rise" | "employment" | "other";

// The policy that sets the lot's controls: a TOD precinct, a low and mid rise housing area, or the LEP alone.
export type PolicyArea = "tod" | "lmr_inner" | "lmr_outer" | "none";

export interface PolicyApplied {
  area: PolicyArea;
  distanceM: number | null; // to the station or centre that places the lot in the area (nearest of the two)
  from: "station" | "centre" | null;
  name: string | null; // the station's or the town centre's name
  excludedBy: string | null; // why a low and mid rise area does not apply, when the lot is within one (the first reason)
}

/** What the policy decided, with what section 13's `policy_area` shows. */
export interface PolicyDecision extends PolicyApplied {
  via: PolicyVia | null; // the place the area is measured from (or the nearest, where none applies)
  exclusions: string[]; // every s 164(1) exclusion the data shows, when the lot is within an area
  lmrZone: boolean; // whether the zone is one Chapter 6's areas apply in (R1-R4)
}

/** The place a policy area is measured from: walked over the streets, or by straight line where no streets are known. */
export interface PolicyVia {
  kind: "station" | "centre";
  name: string;
  walkingM: number | null;
  straightM: number;
  basis: "walking" | "straight_line";
}

/** docs/design.md section 13's `feasibility.policy_area`. */
export interface PolicyAreaShown {
  kind: "lmr_inner" | "lmr_outer" | "tod" | null;
  via: PolicyVia | null;
  excludedBy: string[];
}

// What bounded an option's dwellings: its FSR, its height and setbacks (the envelope), or the site itself.
export type YieldLimit = "fsr" | "envelope" | "site";

// One way to develop the lot, tested against its rule; the permitted one with most dwellings is the yield.
export interface YieldOption {
  basis: YieldBasis;
  permitted: boolean;
  dwellings: number; // what it would give if permitted
  rule: string; // the rule and its figures, e.g. "lot 612 m² ≥ 450 m², frontage 20 m ≥ 12 m"
  clause: string; // the instrument and clause the test applies, e.g. "Housing SEPP 2021 s 168(2)"
  gfaM2: number | null; // its floor space: the FSR's, within what its height and setbacks hold; null when unbounded
  storeys: number | null; // the storeys its height allows (no height mapped: those its floor space needs); null: not limited
  limitedBy: YieldLimit | null; // what bounded its dwellings, when floor space did
}

// A zone as reported in the result: the same fields the spatial layer supplied.
export type ZoneSummary = ZoneShare;

export interface EffectiveControls {
  fsr: number | null; // share-weighted: each FSR applies to its part of the lot
  heightM: number | null; // the height area covering most of the lot (older packs: the dominant zone's)
  minLotSizeM2: number | null; // the lot size area covering most of the lot (older packs: the dominant zone's)
}

export interface DualOccupancyTest {
  eligible: boolean;
  zoneAllows: boolean;
  areaOk: boolean;
  frontageOk: boolean;
  minAreaM2: number;
  minFrontageM: number;
}

export interface SubdivisionPotential {
  lots: number | null; // floor(area / min lot size); null when no min lot size applies
  possible: boolean; // at least two lots of the minimum size fit
}

export interface FeasibilityResult {
  modelVersion: string;
  lotId: string | null;
  areaM2: number;
  frontageM: number;
  frontageBasis: FrontageBasis;
  regularity: number;
  zones: ZoneSummary[];
  dominantZone: ZoneSummary | null;
  zoneCategory: ZoneCategory | null;
  controls: EffectiveControls;
  controlAreas: ControlAreas; // shares as shown, largest first
  gfaPotentialM2: number | null;
  dwellingYield: number | null;
  yieldBasis: YieldBasis;
  subdivision: SubdivisionPotential;
  dualOccupancy: DualOccupancyTest;
  hazards: { flood: number; bushfire: number };
  heritage: { share: number; names: string[] };
  transport: NearestStop | null;
  // v2: the uplift and what it rests on; v3: what stands, recorded or assumed.
  existing: ExistingShown;
  existingDwellings: number; // standing today: recorded, or assumed (1 on a residential lot)
  upliftDwellings: number | null; // permitted beyond the existing; null when not estimated
  upliftFloorSpaceM2: number | null; // feasibility-v2's employment floor space uplift; null since housing is what is scored
  upliftUnits: number; // what the points are read from: the dwellings beyond those assumed to stand
  heritageKind: "item" | "conservation_area" | null;
  station: NearestStop | null; // the nearest station, for the policies
  centreDistanceM: number | null;
  policy: PolicyApplied;
  // v3: the policy area as section 13 spells it, and both places walked to (with their straight-line distances).
  policyArea: PolicyAreaShown;
  reach: Reach | null;
  // v3: false where the zone's land use table (with the state policies) permits no housing; then no housing yield.
  housingPermitted: boolean;
  yieldOptions: YieldOption[];
  score: number;
  rating: Rating;
  components: ScoreComponent[];
  reasons: string[];
  demoData: boolean;
  amalgamation?: AmalgamationShown; // present when a group of lots was scored as one site
}
