// One decoded page of a v2 pack seen as a small v1 pack of one layer, so every spatial function (parcel at a point,
// by lot id, in a box, tiles) runs on it unchanged: a lots pack's page as its "parcels" layer, facts precomputed in
// its columns; a page of a pack of layers as its layer (page-layer.ts).
import type { Layer, Pack, Props } from "../types.ts";
import { isLotsPack, LOT_COLUMNS, type LotColumnRead, type LotRecord, lotRecordAt } from "./lot-columns.ts";
import { type DecodedPage, pageValue } from "./page.ts";
import { degreesIndex, layerOfPage, pageLayer, simpleRings } from "./page-layer.ts";
import type { PagedPack, Snapshot } from "./reader.ts";
import { PageRefusedError } from "./errors.ts";
import { FORMAT_VERSION, packMetaOf } from "./schema.ts";

// Columns a lot's props carry (what the map and the parcel answer show); the rest are read through record(i).
export const PROP_COLUMNS = [
  "lot_id",
  "address",
  "zone",
  "fsr",
  "height_m",
  "min_lot_m2",
  "flood",
  "bushfire",
  "heritage",
  "suburb",
];

const views = new WeakMap<DecodedPage, Pack>();
const chargers = new WeakMap<Pack, (bytes: number) => void>();

/** Counts `bytes` of structures built later from a page's view (a tile's tags) against the page cache's budget. */
export function chargeView(view: Pack, bytes: number): void {
  chargers.get(view)?.(bytes);
}

type Ten = [number, number, number, number, number, number, number, number, number, number];

// A lot's props when the page has every prop column: one literal in PROP_COLUMNS' order, no key added one at a time.
function lotProps(page: DecodedPage, c: readonly number[]): (i: number) => Props {
  const [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9] = c as Ten;
  return (i) => ({
    lot_id: pageValue(page, c0, i),
    address: pageValue(page, c1, i),
    zone: pageValue(page, c2, i),
    fsr: pageValue(page, c3, i),
    height_m: pageValue(page, c4, i),
    min_lot_m2: pageValue(page, c5, i),
    flood: pageValue(page, c6, i),
    bushfire: pageValue(page, c7, i),
    heritage: pageValue(page, c8, i),
    suburb: pageValue(page, c9, i),
  });
}

function fieldProps(page: DecodedPage, fields: readonly string[], fieldCols: readonly number[]): (i: number) => Props {
  return (i) => {
    const out: Props = {};
    for (let k = 0; k < fields.length; k++) out[fields[k] as string] = pageValue(page, fieldCols[k] as number, i);
    return out;
  };
}

// A lot's record by column position: each LOT_COLUMNS column's place in this pack is looked up once per page view.
function lotRecords(page: DecodedPage, col: ReadonlyMap<string, number>): (i: number) => LotRecord {
  const cols = Int32Array.from(LOT_COLUMNS, (c) => col.get(c.name) ?? -1);
  const read: LotColumnRead = (k, i) => {
    const c = cols[k] as number;
    return c < 0 ? null : pageValue(page, c, i);
  };
  const hasNearest = col.has("nearest_station");
  const hasReach = col.has("walk_station_m");
  return (i) => lotRecordAt(read, i, hasNearest, hasReach);
}

/** The page's view with the bytes it adds charged to `pack`'s page cache: how a reader of a pack's pages takes them. */
export function chargedView(pack: Pick<PagedPack, "chargePage">, s: Snapshot, page: DecodedPage): Pack {
  return pagePack(s, page, (bytes) => pack.chargePage(s, page.no, bytes));
}

// A lots pack's page as its one "parcels" layer: the props PROP_COLUMNS name, and each lot's record.
function lotsLayer(s: Snapshot, page: DecodedPage): Layer {
  const meta = s.root.meta;
  const col = new Map(meta.columns.map((c, i) => [c.name, i]));
  const isLots = isLotsPack((name) => col.has(name));
  const demo = col.get("demo");
  let syntheticCount = 0;
  if (demo !== undefined) for (let i = 0; i < page.count; i++) if (pageValue(page, demo, i) === 1) syntheticCount++;
  const { index, bbox } = degreesIndex(page, page.count);
  const fields = PROP_COLUMNS.filter((f) => col.has(f));
  const fieldCols = fields.map((f) => col.get(f) as number);
  return {
    name: "parcels",
    kind: "polygon",
    count: page.count,
    synthetic: page.count > 0 && syntheticCount === page.count,
    categoryField: null,
    fields,
    bbox,
    coords: page.coords,
    ringOffsets: page.ringOffsets,
    polyOffsets: page.polyOffsets,
    featureOffsets: page.featureOffsets,
    index,
    indexOrder: false,
    syntheticField: null,
    syntheticCount,
    featureVertices: simpleRings(page),
    props: fields.length === PROP_COLUMNS.length ? lotProps(page, fieldCols) : fieldProps(page, fields, fieldCols),
    ...(isLots ? { record: lotRecords(page, col) } : {}),
  };
}

// A pack of layers' page as the layer its page range falls in.
function layerOf(s: Snapshot, page: DecodedPage): Layer {
  const meta = s.root.meta;
  const l = layerOfPage(meta.layers ?? [], page.no);
  if (!l) throw new PageRefusedError(s.key, `pack ${s.key} page ${page.no} refused: no layer holds it`, page.no);
  return pageLayer(page, l, new Map(meta.columns.map((c, i) => [c.name, i])), s.key);
}

/**
 * The page as a v1 Pack (memoised per decoded page, so it lives as long as the page cache keeps the page);
 * `charge` is told the bytes the view adds (its index in degrees), to count them against the cache's budget.
 */
export function pagePack(s: Snapshot, page: DecodedPage, charge?: (bytes: number) => void): Pack {
  const have = views.get(page);
  if (have) return have;
  const meta = s.root.meta;
  const layer = meta.layers ? layerOf(s, page) : lotsLayer(s, page);
  const pack: Pack = {
    id: meta.id,
    version: meta.version,
    formatVersion: FORMAT_VERSION,
    meta: packMetaOf(meta),
    bbox: layer.bbox,
    checksum: s.root.pageCrcs[page.no] as number,
    byteLength: page.bytes,
    layers: new Map([[layer.name, layer]]),
  };
  views.set(page, pack);
  if (charge) chargers.set(pack, charge);
  charge?.((layer.index?.data.byteLength ?? 0) + (layer.featureVertices?.byteLength ?? 0));
  return pack;
}
