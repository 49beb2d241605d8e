// A pack built in memory from layers, never written: what a build's overlay kernels read (the world's suburbs, a
// streamed build's overlays), with the same index and feature order a stored pack of those layers would have.
import { featureVertices } from "./feature-vertices.ts";
import {
  checkColumns,
  countSynthetic,
  featureBoxes,
  featureCount,
  indexOfBoxes,
  packBox,
  toIndexOrder,
} from "./layer-input.ts";
import type { BBox, Layer, LayerInput, Pack, PackInput, Props } from "./types.ts";

const NONE = new Uint32Array(0);

function memoryLayer(input: LayerInput, order: "input" | "index"): Layer {
  const count = featureCount(input);
  checkColumns(input, count);
  const index = count > 0 ? indexOfBoxes(featureBoxes(input, count), count) : null;
  const layer = index && order === "index" ? toIndexOrder(input, index, count) : input;
  // Rows as a stored pack gives them back (JSON: undefined and NaN read as null), taken once.
  const rows = Array.from({ length: count }, (_, i) => JSON.parse(JSON.stringify(layer.row(i))) as unknown[]);
  const g = layer.geometry;
  const poly = g.kind === "polygon" ? g : null;
  const bbox: BBox = index ? [index.minX, index.minY, index.maxX, index.maxY] : [0, 0, 0, 0];
  return {
    name: layer.name,
    kind: g.kind,
    count,
    synthetic: layer.synthetic,
    fields: [...layer.fields],
    categoryField: layer.categoryField ?? null,
    bbox,
    index,
    indexOrder: order === "index",
    syntheticField: layer.syntheticField ?? null,
    syntheticCount: layer.synthetic ? count : countSynthetic(layer, count),
    coords: g.coords,
    ringOffsets: poly ? poly.ringOffsets : NONE,
    polyOffsets: poly ? poly.polyOffsets : NONE,
    featureOffsets: poly ? poly.featureOffsets : NONE,
    featureVertices: poly ? featureVertices(poly, count) : null,
    props: (i: number): Props => {
      const row = rows[i];
      if (!row) throw new RangeError(`layer ${layer.name} has no feature ${i}`);
      // A fresh object per read: callers may change what they are given.
      const out: Props = {};
      layer.fields.forEach((f, k) => {
        out[f] = row[k] ?? null;
      });
      return out;
    },
  };
}

/** The pack of `input`'s layers, held in memory (checksum 0, byte length that of its arrays). */
export function memoryPack(input: PackInput): Pack {
  const layers = new Map<string, Layer>();
  for (const l of input.layers) {
    if (layers.has(l.name)) throw new Error(`duplicate layer ${l.name}`);
    layers.set(l.name, memoryLayer(l, input.order ?? "input"));
  }
  let byteLength = 0;
  for (const l of layers.values()) byteLength += l.coords.byteLength + l.ringOffsets.byteLength;
  return {
    id: input.id,
    version: input.version,
    formatVersion: 0,
    meta: input.meta,
    bbox: packBox([...layers.values()]),
    checksum: 0,
    byteLength,
    layers,
  };
}
