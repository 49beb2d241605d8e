import type Flatbush from "flatbush";

export type BBox = [west: number, south: number, east: number, north: number];
export type LayerKind = "point" | "polygon";
export type Props = Record<string, unknown>;

export type PackMeta = {
  title: string;
  attribution: string;
  licence: string;
  note?: string;
};

// A decoded layer: geometry and index are views over the pack's bytes, properties decode per feature.
export type Layer = {
  name: string;
  kind: LayerKind;
  count: number;
  synthetic: boolean;
  fields: readonly string[];
  categoryField: string | null;
  bbox: BBox;
  index: Flatbush | null;
  // Features are stored in the index's leaf order (Hilbert), so leaf position = feature index.
  indexOrder: boolean;
  // Field whose `true` marks one feature as synthetic in a layer of mixed provenance, or null.
  syntheticField: string | null;
  // How many features are synthetic: all of them for a synthetic layer, else those marked by syntheticField.
  syntheticCount: number;
  // Interleaved lon/lat of every vertex (polygon) or of each point (point layer).
  coords: Float64Array;
  // Polygon layers only (empty for points): vertex start of each ring, ring start of each polygon, polygon start of each feature; each has one extra closing entry.
  ringOffsets: Uint32Array;
  polyOffsets: Uint32Array;
  featureOffsets: Uint32Array;
  // First vertex of each feature (| SIMPLE_FEATURE when it is a single ring), count+1 entries; null in older packs.
  featureVertices: Uint32Array | null;
  props(i: number): Props;
};

export type Pack = {
  id: string;
  version: string;
  formatVersion: number;
  meta: PackMeta;
  bbox: BBox;
  checksum: number;
  byteLength: number;
  layers: Map<string, Layer>;
};

// Columnar geometry handed to the encoder; rings are stored open (first vertex not repeated).
export type PolygonColumns = {
  kind: "polygon";
  coords: Float64Array;
  ringOffsets: Uint32Array;
  polyOffsets: Uint32Array;
  featureOffsets: Uint32Array;
};
export type PointColumns = { kind: "point"; coords: Float64Array };

export type LayerInput = {
  name: string;
  synthetic: boolean;
  categoryField?: string;
  syntheticField?: string;
  fields: readonly string[];
  geometry: PolygonColumns | PointColumns;
  // One value per field for feature i; values must be JSON-serialisable.
  row(i: number): readonly unknown[];
};

export type PackInput = {
  id: string;
  version: string;
  meta: PackMeta;
  layers: readonly LayerInput[];
  // "index" reorders each layer's features into the index's Hilbert order (what the builder does); default keeps input order.
  order?: "input" | "index";
};
