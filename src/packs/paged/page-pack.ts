// One decoded page of a v2 lots pack seen as a small v1 pack with a "parcels" layer, so every spatial function
// (parcel at a point, by lot id, in a box, tiles) runs on it unchanged; facts come precomputed from its columns.
import Flatbush from "flatbush";
import { type BBox, featureBBox } from "../../geo/bbox.ts";
import { SIMPLE_FEATURE } from "../format.ts";
import type { Layer, Pack, Props } from "../types.ts";
import { isLotsPack, LOT_COLUMNS, type LotColumnRead, type LotRecord, lotRecordAt } from "./lot-columns.ts";
import { type DecodedPage, pageValue } from "./page.ts";
import type { PagedPack, Snapshot } from "./reader.ts";

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
export const PAGED_FORMAT_VERSION = 2;

const views = new WeakMap<DecodedPage, Pack>();
const chargers = new WeakMap<Pack, (bytes: number) => void>();

/** Counts `bytes` of structures built later from a page's view (a tile's tags) against the page cache's budget. */
export function chargeView(view: Pack, bytes: number): void {
  chargers.get(view)?.(bytes);
}

function degreesIndex(page: DecodedPage): { index: Flatbush; bbox: BBox } {
  const index = new Flatbush(Math.max(1, page.count));
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < page.count; i++) {
    const [minX, minY, maxX, maxY] = featureBBox(page, i);
    index.add(minX, minY, maxX, maxY);
    bbox[0] = Math.min(bbox[0], minX);
    bbox[1] = Math.min(bbox[1], minY);
    bbox[2] = Math.max(bbox[2], maxX);
    bbox[3] = Math.max(bbox[3], maxY);
  }
  // An empty page still needs a finished index.
  if (page.count === 0) index.add(0, 0, 0, 0);
  index.finish();
  return { index, bbox };
}

// Each feature's first vertex, flagged when it is one ring (v1's featureVertices): a point test then skips the offsets.
function simpleRings(page: DecodedPage): Uint32Array {
  const n = page.count;
  const out = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const p0 = page.featureOffsets[i] as number;
    const r0 = page.polyOffsets[p0] as number;
    const simple = (page.featureOffsets[i + 1] as number) === p0 + 1 && (page.polyOffsets[p0 + 1] as number) === r0 + 1;
    out[i] = ((page.ringOffsets[r0] as number) | (simple ? SIMPLE_FEATURE : 0)) >>> 0;
  }
  out[n] = page.ringOffsets[page.polyOffsets[page.featureOffsets[n] as number] as number] as number;
  return out;
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
  return (i) => lotRecordAt(read, i, hasNearest);
}

/** The page's view with the bytes it adds charged to `pack`'s page cache: how a reader of a pack's pages takes them. */
export function chargedView(pack: Pick<PagedPack, "chargePage">, s: Snapshot, page: DecodedPage): Pack {
  return pagePack(s, page, (bytes) => pack.chargePage(s, page.no, bytes));
}

/**
 * The page as a v1 Pack (memoised per decoded page, so it lives as long as the page cache keeps the page);
 * `charge` is told the bytes the view adds (its index in degrees), to count them against the cache's budget.
 */
export function pagePack(s: Snapshot, page: DecodedPage, charge?: (bytes: number) => void): Pack {
  const have = views.get(page);
  if (have) return have;
  const meta = s.root.meta;
  const col = new Map(meta.columns.map((c, i) => [c.name, i]));
  const isLots = isLotsPack((name) => col.has(name));
  const demo = col.get("demo");
  let syntheticCount = 0;
  if (demo !== undefined) for (let i = 0; i < page.count; i++) if (pageValue(page, demo, i) === 1) syntheticCount++;
  const { index, bbox } = degreesIndex(page);
  const fields = PROP_COLUMNS.filter((f) => col.has(f));
  const fieldCols = fields.map((f) => col.get(f) as number);
  const featureVertices = simpleRings(page);
  const layer: Layer = {
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
    featureVertices,
    props: fields.length === PROP_COLUMNS.length ? lotProps(page, fieldCols) : fieldProps(page, fields, fieldCols),
    ...(isLots ? { record: lotRecords(page, col) } : {}),
  };
  const pack: Pack = {
    id: meta.id,
    version: meta.version,
    formatVersion: PAGED_FORMAT_VERSION,
    meta: {
      title: meta.info.title ?? meta.id,
      attribution: meta.info.attribution ?? "",
      licence: meta.info.licence ?? "",
      ...(meta.info.note ? { note: meta.info.note } : {}),
    },
    bbox,
    checksum: s.root.pageCrcs[page.no] as number,
    byteLength: page.bytes,
    layers: new Map([["parcels", layer]]),
  };
  views.set(page, pack);
  if (charge) chargers.set(pack, charge);
  charge?.(index.data.byteLength + featureVertices.byteLength);
  return pack;
}
