// The columns a v2 lots pack stores per lot: every fact the feasibility model reads, precomputed at build time.
//
// The common lot (one zone, each control one area over all of it) is all typed columns; a lot with more zones or
// split control areas carries the rest as JSON in `more`. Shares are stored in 1e-4 steps, the answers' rounding.
import type {
  ControlAreas,
  ControlShare,
  ExistingKind,
  ExistingUse,
  NearestStop,
  PlaceReach,
  Reach,
  SiteFacts,
  ZoneShare,
} from "../../scoring/types.ts";
import type { LotPlace, LotRecord } from "../lot-record.ts";
import type { ColumnSpec, SummarySpec, Value } from "./schema.ts";

export const LOT_COLUMNS: ColumnSpec[] = [
  { name: "lot_id", type: "text" },
  { name: "address", type: "text" },
  { name: "demo", type: "u8" },
  { name: "area_m2", type: "u32", scale: 10 },
  { name: "zone", type: "dict" },
  { name: "zone_name", type: "dict" },
  { name: "zone_share", type: "u16", scale: 10_000 },
  { name: "fsr", type: "u16", scale: 100 },
  { name: "height_m", type: "u16", scale: 10 },
  { name: "min_lot_m2", type: "u32" },
  // 0: no control layers (older packs); 1: each control one area over the whole lot (labels below); 2: in `more`.
  { name: "controls", type: "u8" },
  { name: "fsr_label", type: "dict" },
  { name: "height_label", type: "dict" },
  { name: "lot_label", type: "dict" },
  { name: "more", type: "text" },
  { name: "flood", type: "u16", scale: 10_000 },
  { name: "bushfire", type: "u16", scale: 10_000 },
  { name: "heritage", type: "u16", scale: 10_000 },
  // Bit 1: a heritage item on the lot; bit 2: a heritage conservation area over it.
  { name: "heritage_kind", type: "u8" },
  { name: "heritage_names", type: "text" },
  // The nearest stop of any mode (bus stops too) within 5 km: what access and the answers' nearest stop read.
  { name: "station", type: "dict" },
  { name: "station_mode", type: "dict" },
  { name: "station_m", type: "f32" },
  // The nearest railway, metro or light rail station within 5 km (STATION_MODES): what the policies read.
  { name: "nearest_station", type: "dict" },
  { name: "nearest_station_mode", type: "dict" },
  { name: "nearest_station_m", type: "f32" },
  { name: "centre_m", type: "u16" },
  { name: "frontage_m", type: "u16", scale: 10 },
  // The lot's area over its minimum rectangle's, 0..1 (with frontage_m, the shape a score shows: not measured per row).
  { name: "regularity", type: "u8", scale: 100 },
  { name: "suburb", type: "dict" },
  { name: "lga", type: "dict" },
  // 1: frontage_m is the lot's boundary on the street; 0 or none: estimated from its shape.
  { name: "frontage_basis", type: "u8" },
  // What stands on the lot, where recorded (none: assumed by zone): its kind, dwellings, strata plan, units, floor space.
  { name: "existing_use", type: "dict" },
  { name: "dwellings", type: "u16" },
  { name: "strata_plan", type: "text" },
  { name: "units", type: "u16" },
  { name: "floor_space_m2", type: "u32" },
  // Walked over the world's streets at build time (docs/design.md section 13): the nearest Schedule 11 station and the
  // nearest designated town centre, each with its walking and straight-line metres; none: not measured.
  { name: "walk_station", type: "dict" },
  { name: "walk_station_m", type: "f32" },
  { name: "walk_station_straight_m", type: "f32" },
  { name: "town_centre", type: "dict" },
  { name: "town_centre_walk_m", type: "f32" },
  { name: "town_centre_straight_m", type: "f32" },
];

// What a search skips a page by: zones present, the largest lot, and whether any lot has a hazard or heritage.
export const LOT_SUMMARY: SummarySpec = {
  zone: "zone",
  max: ["area_m2", "fsr", "height_m"],
  flags: ["flood", "bushfire", "heritage"],
};

export const LOT_ID_COLUMN = "lot_id";

// Columns added after the first lots packs: a pack without them is still a lots pack (its facts read without them).
const ADDED_LATER: ReadonlySet<string> = new Set([
  "nearest_station",
  "nearest_station_mode",
  "nearest_station_m",
  "regularity",
  "frontage_basis",
  "existing_use",
  "dwellings",
  "strata_plan",
  "units",
  "floor_space_m2",
  "walk_station",
  "walk_station_m",
  "walk_station_straight_m",
  "town_centre",
  "town_centre_walk_m",
  "town_centre_straight_m",
]);

/** Whether a pack with these columns is a lots pack: every column of LOT_COLUMNS but those added later. */
export function isLotsPack(has: (name: string) => boolean): boolean {
  return LOT_COLUMNS.every((c) => ADDED_LATER.has(c.name) || has(c.name));
}

const COL = new Map(LOT_COLUMNS.map((c, i) => [c.name, i]));
/** The position of a lots-pack column. */
export function lotColumn(name: string): number {
  const i = COL.get(name);
  if (i === undefined) throw new RangeError(`no lots-pack column ${name}`);
  return i;
}

export const HERITAGE_ITEM = 1;
export const HERITAGE_AREA = 2;

/** What a lots pack knows of a lot beyond the model's SiteFacts (for search and the facts panel). */
export type { LotPlace, LotRecord };

// The widest frontage u16 at 0.1 m holds; a lot wider has its shape measured when scored.
const FRONTAGE_MAX = 6_553.4;
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
type ZoneTuple = [string, string | null, number, number | null, number | null, number | null];
/** What a lot's `more` column holds as JSON: the zones after the main one, and split control areas. */
export type More = { zones?: ZoneTuple[]; controls?: ControlAreas };

function wholeLot(list: readonly ControlShare[], value: number | null): boolean {
  if (list.length === 0) return value === null;
  const [c] = list;
  return list.length === 1 && c !== undefined && r4(c.share) === 1 && c.value === value;
}

// Single-entry controls over the whole lot whose values the main zone already carries: typed columns suffice.
function simpleControls(facts: Omit<SiteFacts, "polygon">): boolean {
  const c = facts.controls;
  const z = facts.zones[0];
  if (!c || !z || facts.zones.length !== 1) return false;
  return wholeLot(c.fsr, z.fsr) && wholeLot(c.heightM, z.heightM) && wholeLot(c.minLotSizeM2, z.minLotSizeM2);
}

const zoneTuple = (z: ZoneShare): ZoneTuple => [z.code, z.name, r4(z.share), z.fsr, z.heightM, z.minLotSizeM2];

/** A lot's record as the column values LOT_COLUMNS lists, in order. */
export function lotValues(r: LotRecord): Value[] {
  const { facts, place } = r;
  const [main, ...rest] = facts.zones;
  const simple = simpleControls(facts);
  const more: More = {};
  if (rest.length > 0) more.zones = rest.map(zoneTuple);
  // Shares in 1e-4 steps, as the typed columns store them: 17 digits of a float cost bytes and say nothing more.
  const rounded = (list: readonly ControlShare[]) => list.map((c) => ({ ...c, share: r4(c.share) }));
  if (facts.controls && !simple) {
    more.controls = {
      fsr: rounded(facts.controls.fsr),
      heightM: rounded(facts.controls.heightM),
      minLotSizeM2: rounded(facts.controls.minLotSizeM2),
    };
  }
  const label = (list: readonly ControlShare[] | undefined) => (simple ? (list?.[0]?.label ?? null) : null);
  const values: Record<string, Value> = {
    lot_id: facts.lotId,
    address: place.address,
    demo: facts.demoData ? 1 : 0,
    // Past u32 at 0.1 m² (429 km², some Crown land) the area is left to the geometry.
    area_m2: facts.areaM2 < 429_496_729 ? facts.areaM2 : null,
    zone: main?.code ?? null,
    zone_name: main?.name ?? null,
    zone_share: main ? r4(main.share) : null,
    fsr: main?.fsr ?? null,
    height_m: main?.heightM ?? null,
    min_lot_m2: main?.minLotSizeM2 ?? null,
    controls: facts.controls ? (simple ? 1 : 2) : 0,
    fsr_label: label(facts.controls?.fsr),
    height_label: label(facts.controls?.heightM),
    lot_label: label(facts.controls?.minLotSizeM2),
    more: Object.keys(more).length > 0 ? JSON.stringify(more) : null,
    flood: r4(facts.hazards.flood),
    bushfire: r4(facts.hazards.bushfire),
    heritage: r4(facts.heritageShare),
    heritage_kind: place.heritageKind,
    heritage_names: facts.heritageNames.length > 0 ? facts.heritageNames.join("\n") : null,
    station: facts.nearestStop?.name ?? null,
    station_mode: facts.nearestStop?.mode ?? null,
    station_m: facts.nearestStop?.distanceM ?? null,
    nearest_station: facts.nearestStation?.name ?? null,
    nearest_station_mode: facts.nearestStation?.mode ?? null,
    nearest_station_m: facts.nearestStation?.distanceM ?? null,
    centre_m: place.centreM === null || place.centreM >= 65_535 ? null : Math.round(place.centreM),
    frontage_m: place.frontageM === null ? null : Math.min(FRONTAGE_MAX, place.frontageM),
    regularity: facts.shape?.regularity ?? null,
    suburb: place.suburb,
    lga: place.lga,
    frontage_basis: facts.shape?.frontageBasis === "street" ? 1 : 0,
    ...existingValues(facts.existing),
    ...reachValues(facts.reach),
  };
  return LOT_COLUMNS.map((c) => values[c.name] ?? null);
}

// What stands as columns: all null where nothing is recorded.
function existingValues(e: ExistingUse | null | undefined): Record<string, Value> {
  if (!e) return {};
  const cap = (n: number | null | undefined, max: number) => (n === null || n === undefined ? null : Math.min(max, n));
  return {
    existing_use: e.kind,
    dwellings: cap(e.dwellings, 65_535),
    strata_plan: e.strataPlan ?? null,
    units: cap(e.units, 65_535),
    floor_space_m2: cap(e.floorSpaceM2, 4_294_967_295),
  };
}

// The places walked to as columns: all null where the pack measured none.
function reachValues(r: Reach | undefined): Record<string, Value> {
  if (!r) return {};
  return {
    walk_station: r.station?.name ?? null,
    walk_station_m: r.station?.walkingM ?? null,
    walk_station_straight_m: r.station?.straightM ?? null,
    town_centre: r.centre?.name ?? null,
    town_centre_walk_m: r.centre?.walkingM ?? null,
    town_centre_straight_m: r.centre?.straightM ?? null,
  };
}

function placeAt(read: LotColumnRead, i: number, name: number, walk: number, straight: number): PlaceReach | null {
  const n = str(read(name, i));
  const s = num(read(straight, i));
  return n === null || s === null ? null : { name: n, walkingM: num(read(walk, i)), straightM: s };
}

function reachAt(read: LotColumnRead, i: number): Reach | undefined {
  const station = placeAt(read, i, K.walkStation, K.walkStationM, K.walkStationStraight);
  const centre = placeAt(read, i, K.townCentre, K.townCentreWalk, K.townCentreStraight);
  return station === null && centre === null ? undefined : { station, centre };
}

const EXISTING_KINDS: ReadonlySet<string> = new Set(["house", "dual_occupancy", "strata", "vacant", "employment"]);

function existingAt(read: LotColumnRead, i: number): ExistingUse | null {
  const kind = str(read(K.existingUse, i));
  if (kind === null || !EXISTING_KINDS.has(kind)) return null;
  return {
    kind: kind as ExistingKind,
    dwellings: num(read(K.dwellings, i)) ?? 0,
    strataPlan: str(read(K.strataPlan, i)),
    units: num(read(K.units, i)),
    floorSpaceM2: num(read(K.floorSpace, i)),
  };
}

const num = (v: Value): number | null => (typeof v === "number" ? v : null);
const str = (v: Value): string | null => (typeof v === "string" ? v : null);

function stopFrom(name: string | null, mode: Value, distanceM: Value): NearestStop | null {
  return name === null ? null : { name, mode: str(mode) ?? "bus", distanceM: num(distanceM) ?? 0 };
}

/** One column of one lot: `read(k, i)` answers LOT_COLUMNS[k] of lot i (null where the pack lacks the column). */
export type LotColumnRead = (k: number, i: number) => Value;

// Positions in LOT_COLUMNS, resolved once: a record reads its columns by position, not by name.
const K = {
  lotId: lotColumn("lot_id"),
  address: lotColumn("address"),
  demo: lotColumn("demo"),
  area: lotColumn("area_m2"),
  zone: lotColumn("zone"),
  zoneName: lotColumn("zone_name"),
  zoneShare: lotColumn("zone_share"),
  fsr: lotColumn("fsr"),
  height: lotColumn("height_m"),
  minLot: lotColumn("min_lot_m2"),
  controls: lotColumn("controls"),
  fsrLabel: lotColumn("fsr_label"),
  heightLabel: lotColumn("height_label"),
  lotLabel: lotColumn("lot_label"),
  more: lotColumn("more"),
  flood: lotColumn("flood"),
  bushfire: lotColumn("bushfire"),
  heritage: lotColumn("heritage"),
  heritageKind: lotColumn("heritage_kind"),
  heritageNames: lotColumn("heritage_names"),
  station: lotColumn("station"),
  stationMode: lotColumn("station_mode"),
  stationM: lotColumn("station_m"),
  nearest: lotColumn("nearest_station"),
  nearestMode: lotColumn("nearest_station_mode"),
  nearestM: lotColumn("nearest_station_m"),
  centre: lotColumn("centre_m"),
  frontage: lotColumn("frontage_m"),
  regularity: lotColumn("regularity"),
  suburb: lotColumn("suburb"),
  lga: lotColumn("lga"),
  frontageBasis: lotColumn("frontage_basis"),
  existingUse: lotColumn("existing_use"),
  dwellings: lotColumn("dwellings"),
  strataPlan: lotColumn("strata_plan"),
  units: lotColumn("units"),
  floorSpace: lotColumn("floor_space_m2"),
  walkStation: lotColumn("walk_station"),
  walkStationM: lotColumn("walk_station_m"),
  walkStationStraight: lotColumn("walk_station_straight_m"),
  townCentre: lotColumn("town_centre"),
  townCentreWalk: lotColumn("town_centre_walk_m"),
  townCentreStraight: lotColumn("town_centre_straight_m"),
} as const;

const whole = (value: number | null | undefined, label: Value): ControlShare[] =>
  value === null || value === undefined ? [] : [{ value, share: 1, label: str(label) }];

/**
 * Lot i's record read by column position (what a page view calls, its columns resolved once per page);
 * `hasNearest`: whether the pack has the nearest-station columns (a pack from before them leaves nearestStation unset).
 */
export function lotRecordAt(read: LotColumnRead, i: number, hasNearest: boolean, hasReach = false): LotRecord {
  const moreText = read(K.more, i);
  // Parsed afresh for each record: the record owns what it keeps.
  const extras = typeof moreText === "string" ? (JSON.parse(moreText) as More) : null;
  const code = str(read(K.zone, i));
  const zones: ZoneShare[] = [];
  if (code !== null) {
    zones.push({
      code,
      name: str(read(K.zoneName, i)),
      share: num(read(K.zoneShare, i)) ?? 0,
      fsr: num(read(K.fsr, i)),
      heightM: num(read(K.height, i)),
      minLotSizeM2: num(read(K.minLot, i)),
    });
  }
  const extra = extras?.zones;
  if (extra) {
    for (const [c, name, share, fsr, heightM, minLotSizeM2] of extra) {
      zones.push({ code: c, name, share, fsr, heightM, minLotSizeM2 });
    }
  }
  const kind = num(read(K.controls, i)) ?? 0;
  const main = zones[0];
  const controls: ControlAreas | undefined =
    kind === 1
      ? {
          fsr: whole(main?.fsr, read(K.fsrLabel, i)),
          heightM: whole(main?.heightM, read(K.heightLabel, i)),
          minLotSizeM2: whole(main?.minLotSizeM2, read(K.lotLabel, i)),
        }
      : kind === 2
        ? extras?.controls
        : undefined;
  const station = str(read(K.station, i));
  const names = str(read(K.heritageNames, i));
  const heritageKind = num(read(K.heritageKind, i)) ?? 0;
  const centreM = num(read(K.centre, i));
  const frontageM = num(read(K.frontage, i));
  const regularity = num(read(K.regularity, i));
  // One literal with every key (undefined where a lot has none): a record's facts share one hidden class, whose
  // properties a score reads and siteFacts copies at in-object speed.
  const facts: LotRecord["facts"] = {
    lotId: str(read(K.lotId, i)),
    areaM2: num(read(K.area, i)) ?? 0,
    zones,
    controls,
    hazards: { flood: num(read(K.flood, i)) ?? 0, bushfire: num(read(K.bushfire, i)) ?? 0 },
    heritageShare: num(read(K.heritage, i)) ?? 0,
    heritageNames: names === null ? [] : names.split("\n"),
    nearestStop: stopFrom(station, read(K.stationMode, i), read(K.stationM, i)),
    nearestStation: hasNearest ? stopFrom(str(read(K.nearest, i)), read(K.nearestMode, i), read(K.nearestM, i)) : null,
    demoData: num(read(K.demo, i)) === 1,
    // What the feasibility policies read: heritage kind, and the distance to centre-zoned land (null: none near).
    heritageKind: {
      item: (heritageKind & HERITAGE_ITEM) !== 0,
      conservationArea: (heritageKind & HERITAGE_AREA) !== 0,
    },
    centreDistanceM: centreM,
    // A frontage at the column's cap is not the lot's: its shape is measured when scored.
    shape:
      frontageM !== null && frontageM < FRONTAGE_MAX && regularity !== null
        ? { frontageM, regularity, frontageBasis: num(read(K.frontageBasis, i)) === 1 ? "street" : undefined }
        : undefined,
    // Undefined, as facts from a pack's layers leave it, where nothing is recorded.
    existing: existingAt(read, i) ?? undefined,
    reach: hasReach ? reachAt(read, i) : undefined,
  };
  // A pack from before the nearest-station columns does not know it: absent, the score takes the nearest stop.
  if (!hasNearest) delete facts.nearestStation;
  // A pack (or a lot) that walked no streets leaves reach absent: the policy then reads the straight line.
  if (facts.reach === undefined) delete facts.reach;
  return {
    facts,
    place: {
      address: str(read(K.address, i)),
      suburb: str(read(K.suburb, i)),
      lga: str(read(K.lga, i)),
      frontageM,
      centreM,
      heritageKind,
    },
  };
}

/**
 * Reads a lot's record back from its column values (`get(name)` answers one column of one lot; `has(name)`
 * whether the pack has that column: a pack from before the nearest-station column leaves nearestStation unset).
 */
export function lotRecord(get: (name: string) => Value, has: (name: string) => boolean = () => true): LotRecord {
  return lotRecordAt((k) => get((LOT_COLUMNS[k] as ColumnSpec).name), 0, has("nearest_station"), has("walk_station_m"));
}
