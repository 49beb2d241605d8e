// What a decoded pack holds: its metadata, layers (point, polygon or line), properties and spatial index.
import type Flatbush from "flatbush";
import type { BBox } from "../geo/bbox.ts";
import type { Columns } from "../geo/types.ts";
import type { LayerKind, PackMeta, UploadInfo } from "./pack-meta.ts";
import type { LotRecord } from "./lot-record.ts";

export type { BBox, LayerKind, PackMeta, UploadInfo };
export type Props = Record<string, unknown>;

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
// Point layers hold one lon/lat per feature in `coords` and empty offset arrays; a line layer's feature is one
// polygon whose rings are the line's parts, open or closed as given (a v2 pack's only).
export type Layer = LayerInfo &
  Columns & {
    index: Flatbush | null;
    // Features are stored in the index's leaf order (Hilbert), so leaf position = feature index.
    indexOrder: boolean;
    // Field whose `true` marks one feature as synthetic in a layer of mixed provenance, or null.
    syntheticField: string | null;
    // How many features are synthetic: all of them for a synthetic layer, else those marked by syntheticField.
    syntheticCount: number;
    // First vertex of each feature (| SIMPLE_FEATURE when it is a single ring), count+1 entries; null in older packs.
    featureVertices: Uint32Array | null;
    props(i: number): Props;
    // A lots pack (v2) page: the lot's facts precomputed at build time, read instead of cutting overlays.
    record?: (i: number) => LotRecord;
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

/**
 * The bindings packs are read from and written to: the R2 bucket, the private-pack cache, the publishes queue, and
 * the queue large uploads are built from (without it every upload is built in its request).
 */
export type PackBindings = Pick<Env, "PACKS" | "PRIVATE_PACKS"> & { PUBLISHES?: Queue; PACK_BUILDS?: Queue };
