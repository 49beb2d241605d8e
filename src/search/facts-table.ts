// The facts a search filters and sorts by, for one v2 page or one v1 pack's lots, in compact columns.
import { lotRecordFrom } from "../assess/lot-record.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import type { DecodedPage, PageColumn } from "../packs/paged/page.ts";
import { HERITAGE_AREA, HERITAGE_ITEM } from "../packs/paged/lot-columns.ts";
import type { Snapshot } from "../packs/paged/reader.ts";
import { PARCELS, parcelFromFeature } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";

/** Strings of one column: codes index `names` (0 is none). */
export type Coded = { codes: Uint16Array; names: (string | null)[] };

export type FactsTable = {
  packId: string;
  // An organisation's own pack: its lots come first where they overlap public ones.
  own: boolean;
  count: number;
  // The lot's label point (a point inside it).
  x: Float64Array;
  y: Float64Array;
  // NaN where the pack has no value.
  area: Float32Array;
  fsr: Float32Array;
  height: Float32Array;
  minLot: Float32Array;
  flood: Float32Array;
  bushfire: Float32Array;
  heritage: Float32Array;
  // Bit 1: a heritage item on the lot; bit 2: a conservation area over it (either may touch it with no share).
  heritageKind: Uint8Array;
  stationM: Float32Array;
  zone: Coded;
  station: Coded;
  suburb: Coded;
  lga: Coded;
  lotId: (string | null)[];
  address: (string | null)[];
  demo: Uint8Array;
  // Approximate bytes held, for the cache's budget.
  bytes: number;
};

// Per lot: 2 f64, 9 f32, 4 u16 codes, a demo byte, and about 48 bytes of id and address strings.
const BYTES_PER_LOT = 16 + 36 + 8 + 1 + 48;

function empty(packId: string, own: boolean, n: number): FactsTable {
  const f32 = () => new Float32Array(n).fill(Number.NaN);
  const coded = (): Coded => ({ codes: new Uint16Array(n), names: [null] });
  return {
    packId,
    own,
    count: n,
    x: new Float64Array(n),
    y: new Float64Array(n),
    area: f32(),
    fsr: f32(),
    height: f32(),
    minLot: f32(),
    flood: new Float32Array(n),
    bushfire: new Float32Array(n),
    heritage: new Float32Array(n),
    heritageKind: new Uint8Array(n),
    stationM: f32(),
    zone: coded(),
    station: coded(),
    suburb: coded(),
    lga: coded(),
    lotId: new Array<string | null>(n).fill(null),
    address: new Array<string | null>(n).fill(null),
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
  return col.values.slice(0, n);
}

/** A v2 lots page's facts, read straight from its columns. */
export function tableFromPage(s: Snapshot, page: DecodedPage): FactsTable {
  const cols = new Map(s.root.meta.columns.map((c, i) => [c.name, page.columns[i]]));
  const n = page.count;
  const t = empty(s.root.meta.id, false, n);
  numbersInto(t.area, cols.get("area_m2"));
  numbersInto(t.fsr, cols.get("fsr"));
  numbersInto(t.height, cols.get("height_m"));
  numbersInto(t.minLot, cols.get("min_lot_m2"));
  numbersInto(t.flood, cols.get("flood"));
  numbersInto(t.bushfire, cols.get("bushfire"));
  numbersInto(t.heritage, cols.get("heritage"));
  numbersInto(t.stationM, cols.get("station_m"));
  const kind = new Float32Array(n);
  numbersInto(kind, cols.get("heritage_kind"));
  const demo = new Float32Array(n);
  numbersInto(demo, cols.get("demo"));
  for (let i = 0; i < n; i++) {
    t.flood[i] = (t.flood[i] as number) || 0;
    t.bushfire[i] = (t.bushfire[i] as number) || 0;
    t.heritage[i] = (t.heritage[i] as number) || 0;
    t.heritageKind[i] = (kind[i] as number) & (HERITAGE_ITEM | HERITAGE_AREA);
    t.demo[i] = demo[i] === 1 ? 1 : 0;
    const [x, y] = featureLabelPoint(page, i);
    t.x[i] = x;
    t.y[i] = y;
  }
  t.zone = codedFrom(cols.get("zone"), n);
  t.station = codedFrom(cols.get("station"), n);
  t.suburb = codedFrom(cols.get("suburb"), n);
  t.lga = codedFrom(cols.get("lga"), n);
  t.lotId = textsFrom(cols.get("lot_id"), n);
  t.address = textsFrom(cols.get("address"), n);
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
  const t = empty(pack.id, own, layer.count);
  const lookups = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const lgas = new Map<string, number>();
  for (let i = 0; i < layer.count; i++) {
    const hit = parcelFromFeature(pack, i);
    const r = hit.record ?? lotRecordFrom(packs, hit);
    const main = r.facts.zones[0];
    const [x, y] = featureLabelPoint(layer, i);
    t.x[i] = x;
    t.y[i] = y;
    // To 0.1 m², as a lots pack stores it and the answer shows it, so a filter at 600 m² treats both alike.
    t.area[i] = Math.round(hit.areaM2 * 10) / 10;
    t.fsr[i] = nan(main?.fsr);
    t.height[i] = nan(main?.heightM);
    t.minLot[i] = nan(main?.minLotSizeM2);
    t.flood[i] = r.facts.hazards.flood;
    t.bushfire[i] = r.facts.hazards.bushfire;
    t.heritage[i] = Math.round(r.facts.heritageShare * 1e4) / 1e4;
    t.heritageKind[i] = r.place.heritageKind;
    t.stationM[i] = nan(r.facts.nearestStop?.distanceM);
    t.zone.codes[i] = codeOf(t.zone, lookups[0] as Map<string, number>, main?.code ?? null);
    t.station.codes[i] = codeOf(t.station, lookups[1] as Map<string, number>, r.facts.nearestStop?.name ?? null);
    t.suburb.codes[i] = codeOf(t.suburb, lookups[2] as Map<string, number>, r.place.suburb);
    t.lga.codes[i] = codeOf(t.lga, lgas, r.place.lga);
    t.lotId[i] = hit.lotId;
    t.address[i] = r.place.address;
    t.demo[i] = r.facts.demoData ? 1 : 0;
  }
  return t;
}
