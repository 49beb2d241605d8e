import type Flatbush from "flatbush";
import type { BBox } from "../geo/bbox.ts";
import type { Columns } from "../geo/types.ts";

export type { BBox };
export type LayerKind = "point" | "polygon";
export type Props = Record<string, unknown>;

export type PackMeta = {
  title: string;
  attribution: string;
  licence: string;
  note?: string;
};

// What the pack's directory says about a layer, and what a decoded layer shows besides its geometry.
export type LayerInfo = {
  name: string;
  kind: LayerKind;
  count: number;
  synthetic: boolean;
  categoryField: string | null;
  fields: readonly string[];
  bbox: BBox;
};

// A decoded layer: geometry and index are views over the pack's bytes, properties decode per feature.
// Point layers hold one lon/lat per feature in `coords` and empty offset arrays.
export type Layer = LayerInfo &
  Columns & {
    index: Flatbush | null;
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
export type PolygonColumns = Columns & { kind: "polygon" };
export type PointColumns = { kind: "point"; coords: Float64Array };

export type LayerInput = {
  name: string;
  synthetic: boolean;
  categoryField?: string;
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
};
