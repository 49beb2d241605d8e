// The lots layer of a v2 tile, cut and encoded in one pass: byte for byte what cutting each page (tileLayers),
// merging the cuts (mergeLayers) and encodeTile give, without a feature object or a re-encoded string per lot.
import type { BBox } from "../geo/bbox.ts";
import { leafBoxes, leafIds } from "../packs/flatbush-walk.ts";
import { underHigherLot } from "../packs/precedence.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { commandSink, polygonInto } from "./cut.ts";
import { TILE_MAX_ZOOM } from "./layers.ts";
import { BUFFER, EXTENT, type TileCoord, tileBBox, tileFrame } from "./math.ts";
import { GEOM_POLYGON } from "./mvt.ts";
import { mercatorYOfPage, type PageTags, tagsOfPage } from "./paged-page.ts";

/** The higher packs' lots near a tile, and the box they were read for (a label point outside it was not tested). */
export type TileCover = { layers: Layer[]; box: BBox };

// Scratch reused from tile to tile (a tile is cut synchronously, start to end).
const commands = commandSink();
let bytes = new Uint8Array(64 * 1024);
// A page value's number in the tile, valid where its stamp is this page visit's.
let valueNo = new Int32Array(4096);
let valueStamp = new Float64Array(4096);
// Open addressing over the tile's values by hash (their numbers; a slot is taken where its stamp is this tile's).
let slots = new Int32Array(8192);
let slotStamp = new Float64Array(8192);
let visit = 0;
// Features of a page marked as meeting the tile (valid where the stamp is this page visit's).
let featureStamp = new Float64Array(4096);
// Features whose box meets a higher pack's lots (only they may lie under one), valid where the stamp is this visit's.
let nearStamp = new Float64Array(4096);

const LAYER_NAME = "parcels";
const NAME_BYTES = new TextEncoder().encode(LAYER_NAME);
// The layer's version and name fields; room before the features for them, the layer's tag and its length.
const NAME_FIELDS = 2 + 2 + NAME_BYTES.length;
const HEAD_ROOM = 1 + 5 + NAME_FIELDS;

const varintBytes = (v: number): number => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5);

function writeVarint(buf: Uint8Array, at: number, v: number): number {
  let x = v >>> 0;
  while (x >= 0x80) {
    buf[at++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  buf[at++] = x;
  return at;
}

function reserve(more: number, at: number): Uint8Array {
  if (at + more > bytes.length) {
    const bigger = new Uint8Array(2 * (at + more));
    bigger.set(bytes.subarray(0, at));
    bytes = bigger;
  }
  return bytes;
}

// The message started at `lenAt` (one byte reserved for its length) ends at `end`: writes the length, moving the
// message on when the length needs more than a byte (the feature's reserve left room); returns the new end.
function closeMessage(buf: Uint8Array, lenAt: number, end: number): number {
  const len = end - lenAt - 1;
  if (len < 0x80) {
    buf[lenAt] = len;
    return end;
  }
  const extra = varintBytes(len) - 1;
  buf.copyWithin(lenAt + 1 + extra, lenAt + 1, end);
  writeVarint(buf, lenAt, len);
  return end + extra;
}

// A stamp no array holds yet (counted in doubles: 2^53 visits never wrap round).
function nextVisit(): number {
  visit++;
  return visit;
}

function sameBytes(a: PageTags, i: number, b: PageTags, j: number): boolean {
  const a0 = a.valueAt[i] as number;
  const b0 = b.valueAt[j] as number;
  const n = (a.valueAt[i + 1] as number) - a0;
  if ((b.valueAt[j + 1] as number) - b0 !== n) return false;
  for (let x = 0; x < n; x++) if (a.valueBytes[a0 + x] !== b.valueBytes[b0 + x]) return false;
  return true;
}

// Every leaf of the page's index tested, in one scan (a page holds a few thousand lots at most): the boxes
// featuresInBox's descent reaches, marked by feature index so they are visited in index order without a sort.
function markInBox(
  layer: Layer,
  w: number,
  s: number,
  e: number,
  n: number,
  stamp: number,
  near: BBox | null,
): [number, number] {
  const index = layer.index;
  if (!index) return [0, -1];
  const boxes = leafBoxes(index) as Float64Array;
  const ids = leafIds(index);
  if (featureStamp.length < layer.count) {
    const bigger = new Float64Array(2 * layer.count);
    bigger.set(featureStamp);
    featureStamp = bigger;
    const biggerNear = new Float64Array(2 * layer.count);
    biggerNear.set(nearStamp);
    nearStamp = biggerNear;
  }
  let first = layer.count;
  let last = -1;
  for (let pos = 0, leaves4 = 4 * index.numItems; pos < leaves4; pos += 4) {
    if (e < (boxes[pos] as number) || n < (boxes[pos + 1] as number) || w > (boxes[pos + 2] as number)) continue;
    if (s > (boxes[pos + 3] as number)) continue;
    const i = layer.indexOrder ? pos >> 2 : (ids[pos >> 2] as number);
    featureStamp[i] = stamp;
    if (near !== null) {
      const x0 = boxes[pos] as number;
      const y0 = boxes[pos + 1] as number;
      if (
        x0 <= near[2] &&
        y0 <= near[3] &&
        (boxes[pos + 2] as number) >= near[0] &&
        (boxes[pos + 3] as number) >= near[1]
      )
        nearStamp[i] = stamp;
    }
    if (i < first) first = i;
    if (i > last) last = i;
  }
  return [first, last];
}

/**
 * The tile of the lots of the pages under it (one "parcels" layer), or null when none is drawn: features in page
 * then index order, keys and values numbered by first use, equal values of different pages shared. A lot whose label
 * point lies in a lot of `cover` (packs that outrank these pages') is not drawn.
 */
export function pagedLotsTile(
  views: readonly Pack[],
  tile: TileCoord,
  cover: TileCover | null = null,
): Uint8Array | null {
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  let meeting = 0;
  for (const view of views) {
    const b = view.layers.get(LAYER_NAME)?.bbox;
    if (b && b[0] <= e && b[2] >= w && b[1] <= n && b[3] >= s) meeting++;
  }
  if (meeting === 0) return null;
  // One page's cut keeps its feature numbers, a merge numbers them in order: guessed from the pages' boxes, and
  // cut again numbered the other way when the pages drawing lots say otherwise.
  const merged = meeting > 1;
  const out = cutPages(views, tile, merged, cover);
  return out === undefined ? (cutPages(views, tile, !merged, cover) ?? null) : out;
}

// The union of the cover's lots' boxes: a lot whose box misses it cannot lie under one.
function coverBox(cover: TileCover | null): BBox | null {
  if (cover === null || cover.layers.length === 0) return null;
  const out: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { bbox } of cover.layers) {
    out[0] = Math.min(out[0], bbox[0]);
    out[1] = Math.min(out[1], bbox[1]);
    out[2] = Math.max(out[2], bbox[2]);
    out[3] = Math.max(out[3], bbox[3]);
  }
  return out;
}

// The tile with ids numbered as `merged` says, or undefined when the pages drawing lots say otherwise.
function cutPages(
  views: readonly Pack[],
  tile: TileCoord,
  merged: boolean,
  cover: TileCover | null,
): Uint8Array | null | undefined {
  const [w, s, e, n] = tileBBox(tile, BUFFER);
  const near = coverBox(cover);
  const higher = cover?.layers ?? [];
  const frame = tileFrame(tile);
  const tol = tile.z >= TILE_MAX_ZOOM ? 0 : 1;
  let tileStamp = 0;
  // The tile's keys and values, each as the page (and number there) whose bytes encode it.
  const keyPage: PageTags[] = [];
  const keyLocal: number[] = [];
  const keyIndex = new Map<string, number>();
  const valuePage: PageTags[] = [];
  const valueLocal: number[] = [];
  // Only once a second page draws lots can a value repeat: until then no table is kept.
  let hashed = false;
  let mask = 0;
  let count = 0;
  let drawing = 0;
  let at = HEAD_ROOM;
  for (const view of views) {
    const layer = view.layers.get(LAYER_NAME);
    if (!layer) continue;
    const stamp = nextVisit();
    const [first, last] = markInBox(layer, w, s, e, n, stamp, near);
    if (first > last) continue;
    const pt = tagsOfPage(view, layer);
    const mercY = mercatorYOfPage(view, layer);
    // The table holds the tile's values at most half full, whatever this page adds: (re)built when it might not.
    if (count > 0 && (!hashed || 2 * (valuePage.length + pt.values.length) > slots.length)) {
      hashed = true;
      const room = 2 * (valuePage.length + pt.values.length);
      if (slots.length < room) {
        const size = 2 ** Math.ceil(Math.log2(room));
        slots = new Int32Array(size);
        slotStamp = new Float64Array(size);
      }
      mask = slots.length - 1;
      tileStamp = nextVisit();
      for (let k = 0; k < valuePage.length; k++) {
        const p = valuePage[k] as PageTags;
        let h = (p.valueHash[valueLocal[k] as number] as number) & mask;
        while (slotStamp[h] === tileStamp) h = (h + 1) & mask;
        slots[h] = k;
        slotStamp[h] = tileStamp;
      }
    }
    const keyNo = new Int32Array(pt.keys.length).fill(-1);
    if (valueNo.length < pt.values.length) {
      valueNo = new Int32Array(2 * pt.values.length);
      valueStamp = new Float64Array(2 * pt.values.length);
    }
    const pageStamp = nextVisit();
    const before = count;
    for (let i = first; i <= last; i++) {
      if (featureStamp[i] !== stamp) continue;
      if (near !== null && nearStamp[i] === stamp && underHigherLot(higher, layer, i)) continue;
      commands.length = 0;
      if (!polygonInto(layer, i, frame, tol, commands, mercY)) continue;
      const t0 = pt.starts[i] as number;
      const t1 = pt.starts[i + 1] as number;
      // Every field at its longest, and room for three lengths to grow: nothing below reallocates.
      const buf = reserve(40 + 5 * (t1 - t0 + commands.length), at);
      buf[at++] = 0x12; // feature (2, bytes)
      const featureAt = at++;
      buf[at++] = 0x08; // id (1, varint)
      at = writeVarint(buf, at, merged ? count : i);
      if (t1 > t0) {
        buf[at++] = 0x12; // tags (2, packed)
        const tagsAt = at++;
        for (let t = t0; t < t1; t += 2) {
          const k = pt.flat[t] as number;
          const v = pt.flat[t + 1] as number;
          let ki = keyNo[k] as number;
          if (ki < 0) {
            const key = pt.keys[k] as string;
            ki = keyIndex.get(key) ?? -1;
            if (ki < 0) {
              ki = keyPage.push(pt) - 1;
              keyLocal.push(k);
              keyIndex.set(key, ki);
            }
            keyNo[k] = ki;
          }
          let vi: number;
          if (valueStamp[v] === pageStamp) vi = valueNo[v] as number;
          else {
            vi = -1;
            let h = 0;
            if (hashed) {
              h = (pt.valueHash[v] as number) & mask;
              for (; slotStamp[h] === tileStamp; h = (h + 1) & mask) {
                const other = slots[h] as number;
                if (sameBytes(pt, v, valuePage[other] as PageTags, valueLocal[other] as number)) {
                  vi = other;
                  break;
                }
              }
            }
            if (vi < 0) {
              vi = valuePage.push(pt) - 1;
              valueLocal.push(v);
              if (hashed) {
                slots[h] = vi;
                slotStamp[h] = tileStamp;
              }
            }
            valueNo[v] = vi;
            valueStamp[v] = pageStamp;
          }
          at = writeVarint(buf, at, ki);
          at = writeVarint(buf, at, vi);
        }
        at = closeMessage(buf, tagsAt, at);
      }
      buf[at++] = 0x18; // type (3, varint)
      buf[at++] = GEOM_POLYGON;
      buf[at++] = 0x22; // geometry (4, packed)
      const geomAt = at++;
      const cmd = commands.data;
      for (let c = 0; c < commands.length; c++) at = writeVarint(buf, at, cmd[c] as number);
      at = closeMessage(buf, geomAt, at);
      at = closeMessage(buf, featureAt, at);
      count++;
    }
    if (count > before) drawing++;
  }
  if (count === 0) return null;
  if (drawing > 1 !== merged) return undefined;
  // Keys, values and extent after the features, then the layer's head just before them: one copy out.
  let keyLength = 0;
  for (let k = 0; k < keyPage.length; k++) {
    const pt = keyPage[k] as PageTags;
    const j = keyLocal[k] as number;
    keyLength += (pt.keyAt[j + 1] as number) - (pt.keyAt[j] as number);
  }
  let valueLength = 0;
  for (let k = 0; k < valuePage.length; k++) {
    const pt = valuePage[k] as PageTags;
    const j = valueLocal[k] as number;
    valueLength += (pt.valueAt[j + 1] as number) - (pt.valueAt[j] as number);
  }
  const buf = reserve(keyLength + valueLength + 3, at);
  for (let k = 0; k < keyPage.length; k++) {
    const pt = keyPage[k] as PageTags;
    const j = keyLocal[k] as number;
    const end = pt.keyAt[j + 1] as number;
    for (let x = pt.keyAt[j] as number; x < end; x++) buf[at++] = pt.keyBytes[x] as number;
  }
  for (let k = 0; k < valuePage.length; k++) {
    const pt = valuePage[k] as PageTags;
    const j = valueLocal[k] as number;
    const src = pt.valueBytes;
    const end = pt.valueAt[j + 1] as number;
    for (let x = pt.valueAt[j] as number; x < end; x++) buf[at++] = src[x] as number;
  }
  buf[at++] = 0x28; // extent (5, varint)
  at = writeVarint(buf, at, EXTENT);
  const body = NAME_FIELDS + at - HEAD_ROOM;
  const start = HEAD_ROOM - NAME_FIELDS - 1 - varintBytes(body);
  buf[start] = 0x1a; // layer (3, bytes)
  let o = writeVarint(buf, start + 1, body);
  buf[o++] = 0x78; // version (15, varint)
  buf[o++] = 2;
  buf[o++] = 0x0a; // name (1, bytes)
  o = writeVarint(buf, o, NAME_BYTES.length);
  buf.set(NAME_BYTES, o);
  return buf.slice(start, at);
}
