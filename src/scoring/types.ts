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
  heritageShare: number; // share 0..1 under a heritage item
  heritageNames: string[];
  nearestStop: NearestStop | null;
  demoData: boolean; // facts came from synthetic demo layers
}

export type Rating = "high" | "medium" | "low";

export type ComponentKey = "development_potential" | "site_constraints" | "transport_access" | "lot_geometry";

export interface ScoreComponent {
  key: ComponentKey;
  label: string;
  points: number;
  maxPoints: number;
  detail: string;
}

// How the dwelling yield was estimated.
export type YieldBasis =
  | "apartments"
  | "subdivision"
  | "dual_occupancy"
  | "single_dwelling"
  | "too_small"
  | "no_fsr"
  | "not_residential"
  | "no_zone";

export type ZoneCategory = "apartment" | "low_rise" | "other";

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
  score: number;
  rating: Rating;
  components: ScoreComponent[];
  reasons: string[];
  demoData: boolean;
}
