// Layers held as columns (a builder's LayerInput, a decoded v1 Layer) written as one v2 pack of layers: each field a
// column typed so that its values read back exactly (infer-columns.ts), a parcels layer's lot_id indexed, geometry
// moved to the 1e-7 degree grid. The demo and suburbs builders and the v1 converter all write through here.
import type { Columns, Position } from "../../geo/types.ts";
import type { PackMeta } from "../pack-meta.ts";
import type { LayerInput } from "../types.ts";
import { encodeLayers, type LayerSource } from "./encode-layers.ts";
import type { FeatureGeometry } from "./feature-geometry.ts";
import { inferColumn } from "./infer-columns.ts";
import { MAX_COLUMNS } from "./root-schema.ts";
import type { ColumnSpec } from "./schema.ts";

/** A layer as columns: its geometry in Columns (a point layer's coords only), its properties a row per feature. */
export type ColumnarLayer = Columns & Omit<LayerSource, "geometry">;

/** The pack the layers are written as: its id, version and provenance, and what else its root's `info` keeps. */
export type ColumnarPack = {
  id: string;
  version: string;
  meta: PackMeta;
  info?: Record<string, string>;
  // Target bytes per page (the v2 default when absent).
  pageBytes?: number;
  // Awaited between pages, so an encoding in a request or a queue step lets other work run.
  pace?: () => Promise<void>;
};

const NONE = new Uint32Array(0);

/** A builder's layer (v1's encoder input) as columns. */
export function columnarOf(input: LayerInput): ColumnarLayer {
  const g = input.geometry;
  const base = {
    name: input.name,
    fields: input.fields,
    categoryField: input.categoryField ?? null,
    synthetic: input.synthetic,
    syntheticField: input.syntheticField ?? null,
    row: (i: number) => input.row(i),
  };
  if (g.kind === "point") {
    const columns = { coords: g.coords, ringOffsets: NONE, polyOffsets: NONE, featureOffsets: NONE };
    return { ...base, ...columns, kind: "point", count: g.coords.length / 2 };
  }
  const { coords, ringOffsets, polyOffsets, featureOffsets } = g;
  return {
    ...base,
    coords,
    ringOffsets,
    polyOffsets,
    featureOffsets,
    kind: "polygon",
    count: featureOffsets.length - 1,
  };
}

// Feature i's rings (polygons of a polygon layer, parts of a line's), as stored: open, never closed here.
function ringsOf(layer: Columns, i: number): Position[][][] {
  const { coords, ringOffsets, polyOffsets, featureOffsets } = layer;
  const polys: Position[][][] = [];
  for (let p = featureOffsets[i] as number; p < (featureOffsets[i + 1] as number); p++) {
    const rings: Position[][] = [];
    for (let r = polyOffsets[p] as number; r < (polyOffsets[p + 1] as number); r++) {
      const ring: Position[] = [];
      for (let v = ringOffsets[r] as number; v < (ringOffsets[r + 1] as number); v++)
        ring.push([coords[2 * v] as number, coords[2 * v + 1] as number]);
      rings.push(ring);
    }
    polys.push(rings);
  }
  return polys;
}

function geometryOf(layer: ColumnarLayer, i: number): FeatureGeometry {
  switch (layer.kind) {
    case "point":
      return { type: "Point", coordinates: [layer.coords[2 * i] as number, layer.coords[2 * i + 1] as number] };
    case "polygon":
      return { type: "MultiPolygon", coordinates: ringsOf(layer, i) };
    case "line":
      return { type: "MultiLineString", coordinates: ringsOf(layer, i).flat() };
  }
}

// Every field name across the layers (first seen first), each typed over the values of every layer that has it.
function columnsOf(id: string, layers: readonly ColumnarLayer[]): ColumnSpec[] {
  const values = new Map<string, unknown[]>();
  for (const layer of layers) {
    const lists = layer.fields.map((f) => {
      const list = values.get(f) ?? [];
      values.set(f, list);
      return list;
    });
    for (let i = 0; i < layer.count; i++) {
      const row = layer.row(i);
      lists.forEach((list, k) => {
        list.push(row[k]);
      });
    }
  }
  if (values.size === 0) throw new Error(`pack ${id}: no layer has a field, and a v2 pack needs a column`);
  if (values.size > MAX_COLUMNS)
    throw new Error(`pack ${id}: ${values.size} distinct fields, more than the ${MAX_COLUMNS} columns of v2`);
  return [...values].map(([name, list]) => inferColumn(name, list));
}

function sourceOf(layer: ColumnarLayer): LayerSource {
  const { name, kind, fields, categoryField, synthetic, syntheticField, count } = layer;
  return {
    name,
    kind,
    fields,
    categoryField,
    synthetic,
    syntheticField,
    count,
    geometry: (i) => geometryOf(layer, i),
    row: (i) => layer.row(i),
  };
}

/** The layers as one v2 pack of layers (root `layers` in their order), a parcels layer's lot_id indexed. */
export function encodeColumnar(layers: readonly ColumnarLayer[], pack: ColumnarPack): Promise<Uint8Array> {
  const columns = columnsOf(pack.id, layers);
  const lotId = columns.find((c) => c.name === "lot_id");
  const parcels = layers.find((l) => l.name === "parcels");
  const indexed =
    parcels?.kind === "polygon" &&
    parcels.fields.includes("lot_id") &&
    (lotId?.type === "text" || lotId?.type === "dict");
  const { title, attribution, licence, note, upload } = pack.meta;
  return encodeLayers(
    layers.map(sourceOf),
    {
      id: pack.id,
      version: pack.version,
      columns,
      ...(indexed ? { lotIdColumn: "lot_id" } : {}),
      info: { title, attribution, licence, ...(note ? { note } : {}), ...pack.info },
      ...(upload ? { upload } : {}),
      ...(pack.pageBytes ? { pageBytes: pack.pageBytes } : {}),
    },
    pack.pace,
  );
}
