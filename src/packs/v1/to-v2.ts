// v1 to v2, faithfully: every layer of a v1 pack (whole-file) as a layer of a v2 pack (read by range), with its
// kind, fields, category field and synthetic marks, and the pack's id, version and metadata. Each field becomes a
// column typed so that its values read back exactly (infer-columns.ts); geometry moves to the 1e-7 degree grid.
import type { Position } from "../../geo/types.ts";
import {
  type ColumnSpec,
  encodeLayers,
  type FeatureGeometry,
  inferColumn,
  type LayerSource,
  MAX_COLUMNS,
} from "../paged/index.ts";
import type { Layer, Pack } from "../types.ts";

export type V1ToV2Options = {
  // Target bytes per page (the v2 default when absent).
  pageBytes?: number;
  // Awaited between pages, so a conversion in a request or a queue step lets other work run.
  pace?: () => Promise<void>;
};

// Feature i's rings (polygons of a polygon layer, parts of a line's), as stored: open, never closed here.
function ringsOf(layer: Layer, i: number): Position[][][] {
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

function geometryOf(layer: Layer, i: number): FeatureGeometry {
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
function columnsOf(pack: Pack): ColumnSpec[] {
  const values = new Map<string, unknown[]>();
  for (const layer of pack.layers.values()) {
    const lists = layer.fields.map((f) => {
      const list = values.get(f) ?? [];
      values.set(f, list);
      return list;
    });
    for (let i = 0; i < layer.count; i++) {
      const props = layer.props(i);
      layer.fields.forEach((f, k) => {
        (lists[k] as unknown[]).push(props[f]);
      });
    }
  }
  if (values.size === 0) throw new Error(`pack ${pack.id}: no layer has a field, and a v2 pack needs a column`);
  if (values.size > MAX_COLUMNS)
    throw new Error(`pack ${pack.id}: ${values.size} distinct fields, more than the ${MAX_COLUMNS} columns of v2`);
  return [...values].map(([name, list]) => inferColumn(name, list));
}

function sourceOf(layer: Layer): LayerSource {
  return {
    name: layer.name,
    kind: layer.kind,
    fields: layer.fields,
    categoryField: layer.categoryField,
    synthetic: layer.synthetic,
    syntheticField: layer.syntheticField,
    count: layer.count,
    geometry: (i) => geometryOf(layer, i),
    row: (i) => {
      const props = layer.props(i);
      return layer.fields.map((f) => props[f]);
    },
  };
}

/** The v1 pack as a v2 pack of the same layers, id, version and metadata (a parcels layer's lot_id indexed). */
export function v1ToV2(pack: Pack, opts: V1ToV2Options = {}): Promise<Uint8Array> {
  const columns = columnsOf(pack);
  const lotId = columns.find((c) => c.name === "lot_id");
  const parcels = pack.layers.get("parcels");
  const indexed =
    parcels?.kind === "polygon" &&
    parcels.fields.includes("lot_id") &&
    (lotId?.type === "text" || lotId?.type === "dict");
  const { title, attribution, licence, note, upload } = pack.meta;
  return encodeLayers(
    [...pack.layers.values()].map(sourceOf),
    {
      id: pack.id,
      version: pack.version,
      columns,
      ...(indexed ? { lotIdColumn: "lot_id" } : {}),
      info: { title, attribution, licence, ...(note ? { note } : {}), converted_from: `v${pack.formatVersion}` },
      ...(upload ? { upload } : {}),
      ...(opts.pageBytes ? { pageBytes: opts.pageBytes } : {}),
    },
    opts.pace,
  );
}
