// A decoded page as a v1 Layer: its index in degrees, and for a pack of layers the page's layer by its kind
// (polygons as stored, points one lon/lat each in `coords`, lines as polygons whose rings are their parts).
import Flatbush from "flatbush";
import { type BBox, featureBBox } from "../../geo/bbox.ts";
import { featureVertices } from "../feature-vertices.ts";
import type { Columns } from "../../geo/types.ts";
import type { Layer, Props } from "../types.ts";
import { PageRefusedError } from "./errors.ts";
import { type DecodedPage, pageProp } from "./page.ts";
import type { LayerMeta } from "./schema.ts";

/**
 * A flatbush of the features' boxes in degrees (what v1's spatial functions search), and their union: a page's, or a
 * layer joined from pages; `points`: the columns hold one lon/lat a feature and no offsets (v1's point layout).
 */
export function degreesIndex(c: Columns, count: number, points = false): { index: Flatbush; bbox: BBox } {
  const index = new Flatbush(Math.max(1, count));
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    const [minX, minY, maxX, maxY] = points
      ? [
          c.coords[2 * i] as number,
          c.coords[2 * i + 1] as number,
          c.coords[2 * i] as number,
          c.coords[2 * i + 1] as number,
        ]
      : featureBBox(c, i);
    index.add(minX, minY, maxX, maxY);
    bbox[0] = Math.min(bbox[0], minX);
    bbox[1] = Math.min(bbox[1], minY);
    bbox[2] = Math.max(bbox[2], maxX);
    bbox[3] = Math.max(bbox[3], maxY);
  }
  // An empty page still needs a finished index.
  if (count === 0) index.add(0, 0, 0, 0);
  index.finish();
  return { index, bbox };
}

/** Each feature's first vertex, flagged when it is one ring (v1's featureVertices): a point test then skips the offsets. */
export function simpleRings(page: DecodedPage): Uint32Array {
  return featureVertices(page, page.count);
}

/** The layer of a pack of layers that holds page `no` (the root checked that their pages follow one another). */
export function layerOfPage(layers: readonly LayerMeta[], no: number): LayerMeta | undefined {
  return layers.find((l) => no >= l.pages[0] && no < l.pages[1]);
}

const NONE = new Uint32Array(0);

// A point layer's page: every feature one polygon of one ring of one vertex, so `coords` holds one lon/lat each.
function checkPoints(page: DecodedPage, l: LayerMeta, key: string): void {
  const n = page.count;
  const one = (a: Uint32Array) => a.length === n + 1 && a.every((v, i) => v === i);
  if (!(one(page.featureOffsets) && one(page.polyOffsets) && one(page.ringOffsets))) {
    const why = `layer ${l.name} is a point layer, but not every feature is one vertex`;
    throw new PageRefusedError(key, `pack ${key} page ${page.no} refused: ${why}`, page.no);
  }
}

/** Page `page` of layer `l` (of pack `key`) as a v1 Layer of its kind; `col` gives each column's position. */
export function pageLayer(page: DecodedPage, l: LayerMeta, col: ReadonlyMap<string, number>, key: string): Layer {
  if (l.kind === "point") checkPoints(page, l, key);
  const { index, bbox } = degreesIndex(page, page.count);
  const cols = l.fields.map((f) => col.get(f) as number);
  const marks = l.syntheticField === null ? undefined : col.get(l.syntheticField);
  let syntheticCount = l.synthetic ? page.count : 0;
  if (!l.synthetic && marks !== undefined)
    for (let i = 0; i < page.count; i++) if (pageProp(page, marks, i) === true) syntheticCount++;
  const props = (i: number): Props => {
    const out: Props = {};
    for (let k = 0; k < cols.length; k++) out[l.fields[k] as string] = pageProp(page, cols[k] as number, i);
    return out;
  };
  const point = l.kind === "point";
  return {
    name: l.name,
    kind: l.kind,
    count: page.count,
    synthetic: l.synthetic,
    categoryField: l.categoryField,
    fields: l.fields,
    bbox,
    coords: page.coords,
    ringOffsets: point ? NONE : page.ringOffsets,
    polyOffsets: point ? NONE : page.polyOffsets,
    featureOffsets: point ? NONE : page.featureOffsets,
    index,
    indexOrder: false,
    syntheticField: l.syntheticField,
    syntheticCount,
    featureVertices: l.kind === "polygon" ? simpleRings(page) : null,
    props,
  };
}
