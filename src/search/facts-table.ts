// The facts a search filters and sorts by, for one v2 page or one v1 pack's lots, in compact columns.
import { lotRecordFrom } from "../assess/lot-record.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import {
  type DecodedPage,
  HERITAGE_AREA,
  HERITAGE_ITEM,
  type PageColumn,
  type PageColumns,
  type Snapshot,
  UNITS_PER_DEGREE,
} from "../packs/paged/index.ts";
import { PARCELS, parcelFromFeature } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";

/** A lot's value figures by column (src/search/value-figures.ts makes them). */
export type ValueColumns = {
  basis: Uint8Array;
  dwellings: Float32Array;
  gfa: Float32Array;
  existingKind: Uint8Array;
  existingDwellings: Float32Array;
  existingUnits: Float32Array;
  existingFloor: Float32Array;
};

/** Bytes a lot's value figures add to a facts table (two bytes and five float32s), for the caches' budgets. */
export const VALUE_BYTES_PER_LOT = 22;

/** Strings of one column: codes index `names` (0 is none). */
export type Coded = { codes: Uint16Array; names: (string | null)[] };

export type FactsTable = {
  packId: string;
  // An organisation's own pack: its lots come first where they overlap public ones.
  own: boolean;
  count: number;
  // The lot's label point (a point inside it), as float32 offsets from x0, y0: exact to a millimetre, half the bytes.
  x0: number;
  y0: number;
  x: Float32Array;
  y: Float32Array;
  // A sidecar block's lots span pages: each lot's point as its page's table computes it (origin plus offset).
  lon?: Float64Array;
  lat?: Float64Array;
  // NaN where the pack has no value.
  area: Float32Array;
  fsr: Float32Array;
  height: Float32Array;
  minLot: Float32Array;
  // Shares in 1e-4 steps, as the packs store them.
  flood: Uint16Array;
  bushfire: Uint16Array;
  heritage: Uint16Array;
  // Bit 1: a heritage item on the lot; bit 2: a conservation area over it (either may touch it with no share).
  heritageKind: Uint8Array;
  stationM: Float32Array;
  zone: Coded;
  station: Coded;
  suburb: Coded;
  lga: Coded;
  lotId: (string | null)[];
  // Null when the pack has no addresses (no array of nulls a lot).
  address: (string | null)[] | null;
  demo: Uint8Array;
  // What a value sort prices (src/search/value-figures.ts); absent until a value sort reads this table.
  value?: ValueColumns;
  // Approximate bytes held, for the cache's budget.
  bytes: number;
};

// Per lot: 2 + 5 f32, 3 u16 shares, 4 u16 codes, 2 bytes, and about 44 bytes of id string and its slot.
const BYTES_PER_LOT = 8 + 20 + 6 + 8 + 2 + 44;

/** The label point's longitude and latitude. */
export const lonOf = (t: FactsTable, i: number): number => (t.lon ? (t.lon[i] as number) : t.x0 + (t.x[i] as number));
export const latOf = (t: FactsTable, i: number): number => (t.lat ? (t.lat[i] as number) : t.y0 + (t.y[i] as number));
const SHARE = 1e4;
/** A share column's value (0 to 1). */
export const shareOf = (col: Uint16Array, i: number): number => (col[i] as number) / SHARE;

function empty(packId: string, own: boolean, n: number, x0: number, y0: number): FactsTable {
  const f32 = () => new Float32Array(n).fill(Number.NaN);
  const coded = (): Coded => ({ codes: new Uint16Array(n), names: [null] });
  return {
    packId,
    own,
    count: n,
    x0,
    y0,
    x: new Float32Array(n),
    y: new Float32Array(n),
    area: f32(),
    fsr: f32(),
    height: f32(),
    minLot: f32(),
    flood: new Uint16Array(n),
    bushfire: new Uint16Array(n),
    heritage: new Uint16Array(n),
    heritageKind: new Uint8Array(n),
    stationM: f32(),
    zone: coded(),
    station: coded(),
    suburb: coded(),
    lga: coded(),
    lotId: new Array<string | null>(n).fill(null),
    address: null,
    demo: new Uint8Array(n),
    bytes: 256 + n * BYTES_PER_LOT,
  };
}

function numbersInto(out: Float32Array, col: PageColumn | undefined): void {
  if (col?.kind !== "num") return;
  const { values, scale, nullValue } = col;
  for (let i = 0; i < out.length; i++) {
    const raw = values[i] as number;
    out[i] = Number.isNaN(raw) || raw === nullValue ? Number.NaN : scale === 1 ? raw : raw / scale;
  }
}

function codedFrom(col: PageColumn | undefined, n: number): Coded {
  if (col?.kind !== "dict") return { codes: new Uint16Array(n), names: [null] };
  // The page's own dictionary: code k names dict[k - 1], as pageValue reads it.
  return { codes: Uint16Array.from(col.codes), names: [null, ...col.dict] };
}

function textsFrom(col: PageColumn | undefined, n: number): (string | null)[] {
  if (col?.kind !== "text") return new Array<string | null>(n).fill(null);
  // The decoded page's own array: the page goes, its strings stay with the table, copied once.
  return col.values.length === n ? col.values : col.values.slice(0, n);
}

/** The page columns tableFromPage reads. */
export const FACT_COLUMNS: ReadonlySet<string> = new Set([
  "area_m2",
  "fsr",
  "height_m",
  "min_lot_m2",
  "flood",
  "bushfire",
  "heritage",
  "nearest_station",
  "nearest_station_m",
  "station",
  "station_m",
  "heritage_kind",
  "demo",
  "zone",
  "suburb",
  "lga",
  "lot_id",
  "address",
]);

/**
 * A v2 lots page's facts, read straight from its columns; with `only`, label points are placed for those lots alone
 * (a search's results read back by the sidecar path: such a table is never cached or searched).
 */
export function tableFromPage(s: Snapshot, page: DecodedPage | PageColumns, only?: ReadonlySet<number>): FactsTable {
  const cols = new Map(s.root.meta.columns.map((c, i) => [c.name, page.columns[i]]));
  // Columns without outlines (a search's results read back): their label points are the sidecar's, set by the caller.
  const outlines = "coords" in page ? page : null;
  const n = page.count;
  const t = empty(
    s.root.meta.id,
    false,
    n,
    (page.frame[0] as number) / UNITS_PER_DEGREE,
    (page.frame[1] as number) / UNITS_PER_DEGREE,
  );
  numbersInto(t.area, cols.get("area_m2"));
  numbersInto(t.fsr, cols.get("fsr"));
  numbersInto(t.height, cols.get("height_m"));
  numbersInto(t.minLot, cols.get("min_lot_m2"));
  const shares = new Float32Array(n);
  for (const [name, into] of [
    ["flood", t.flood],
    ["bushfire", t.bushfire],
    ["heritage", t.heritage],
  ] as const) {
    shares.fill(0);
    numbersInto(shares, cols.get(name));
    for (let i = 0; i < n; i++) into[i] = Math.round(((shares[i] as number) || 0) * SHARE);
  }
  // "Near a station" means a train, metro or light-rail station; a pack from before that column has only the nearest stop.
  const stationCol = cols.has("nearest_station_m") ? "nearest_station" : "station";
  numbersInto(t.stationM, cols.get(`${stationCol}_m`));
  const kind = new Float32Array(n);
  numbersInto(kind, cols.get("heritage_kind"));
  const demo = new Float32Array(n);
  numbersInto(demo, cols.get("demo"));
  for (let i = 0; i < n; i++) {
    t.heritageKind[i] = (kind[i] as number) & (HERITAGE_ITEM | HERITAGE_AREA);
    t.demo[i] = demo[i] === 1 ? 1 : 0;
    if (!outlines || (only && !only.has(i))) continue;
    // On the pack's own 1e-7 degree grid (a centimetre): the search sidecar then stores it as a small int, exactly.
    const [x, y] = featureLabelPoint(outlines, i);
    t.x[i] = Math.round((x - t.x0) * UNITS_PER_DEGREE) / UNITS_PER_DEGREE;
    t.y[i] = Math.round((y - t.y0) * UNITS_PER_DEGREE) / UNITS_PER_DEGREE;
  }
  t.zone = codedFrom(cols.get("zone"), n);
  t.station = codedFrom(cols.get(stationCol), n);
  t.suburb = codedFrom(cols.get("suburb"), n);
  t.lga = codedFrom(cols.get("lga"), n);
  t.lotId = textsFrom(cols.get("lot_id"), n);
  const address = cols.get("address");
  t.address = address?.kind === "text" && address.values.some((a) => a !== null) ? textsFrom(address, n) : null;
  return t;
}

function codeOf(c: Coded, lookup: Map<string, number>, value: string | null): number {
  if (value === null) return 0;
  let k = lookup.get(value);
  if (k === undefined) {
    k = c.names.length;
    c.names.push(value);
    lookup.set(value, k);
  }
  return k;
}

const nan = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);

/** A v1 pack's lots, each lot's record computed from `packs`' overlays by the build-time kernels. */
export function tableFromPack(pack: Pack, packs: readonly Pack[], own: boolean): FactsTable | null {
  const layer = pack.layers.get(PARCELS);
  if (layer?.kind !== "polygon") return null;
  const t = empty(pack.id, own, layer.count, pack.bbox[0], pack.bbox[1]);
  const addresses = new Array<string | null>(layer.count).fill(null);
  const lookups = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const lgas = new Map<string, number>();
  for (let i = 0; i < layer.count; i++) {
    const hit = parcelFromFeature(pack, i);
    const r = hit.record ?? lotRecordFrom(packs, hit);
    const main = r.facts.zones[0];
    const [x, y] = featureLabelPoint(layer, i);
    t.x[i] = x - t.x0;
    t.y[i] = y - t.y0;
    // To 0.1 m², as a lots pack stores it and the answer shows it, so a filter at 600 m² treats both alike.
    t.area[i] = Math.round(hit.areaM2 * 10) / 10;
    t.fsr[i] = nan(main?.fsr);
    t.height[i] = nan(main?.heightM);
    t.minLot[i] = nan(main?.minLotSizeM2);
    t.flood[i] = Math.round(r.facts.hazards.flood * SHARE);
    t.bushfire[i] = Math.round(r.facts.hazards.bushfire * SHARE);
    t.heritage[i] = Math.round(r.facts.heritageShare * SHARE);
    t.heritageKind[i] = r.place.heritageKind;
    // null: no station within reach; undefined: facts from before stations were told apart from stops.
    const station = r.facts.nearestStation !== undefined ? r.facts.nearestStation : r.facts.nearestStop;
    t.stationM[i] = nan(station?.distanceM);
    t.zone.codes[i] = codeOf(t.zone, lookups[0] as Map<string, number>, main?.code ?? null);
    t.station.codes[i] = codeOf(t.station, lookups[1] as Map<string, number>, station?.name ?? null);
    t.suburb.codes[i] = codeOf(t.suburb, lookups[2] as Map<string, number>, r.place.suburb);
    t.lga.codes[i] = codeOf(t.lga, lgas, r.place.lga);
    t.lotId[i] = hit.lotId;
    addresses[i] = r.place.address;
    t.demo[i] = r.facts.demoData ? 1 : 0;
  }
  t.address = addresses.some((a) => a !== null) ? addresses : null;
  return t;
}
