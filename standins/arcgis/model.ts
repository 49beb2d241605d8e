// What the ArcGIS stand-in serves: services of layers, each layer's description and its features (Esri JSON shapes).

/** A field as an ArcGIS layer describes it (`esriFieldTypeString`, `length` for strings and dates). */
export type EsriField = { name: string; type: string; alias: string; length?: number };

export type Attributes = Record<string, string | number | null>;

/** A closed ring of [lon, lat] positions (WGS84); Esri orientation: outer rings clockwise, holes anticlockwise. */
export type Ring = [number, number][];

export type FixtureFeature = { attributes: Attributes; rings: Ring[] };

export type FixtureLayer = {
  id: number;
  name: string;
  fields: EsriField[];
  objectIdField: string;
  displayField: string;
  maxRecordCount: number;
  supportsPagination: boolean;
  /** `editingInfo.lastEditDate`, epoch milliseconds. */
  lastEditDate: number;
  /** The reference system the layer keeps its data in (answers without `outSR` come in it). */
  wkid: number;
  /** Served only in its own reference system: `outSR` is ignored (a GDA2020-only layer). */
  onlyNative: boolean;
  features: FixtureFeature[];
};

export type FixtureService = {
  /** Under `/arcgis/rest/services/`: "NSW_Land_Parcel_Property_Theme/FeatureServer". */
  path: string;
  wkid: number;
  copyrightText: string;
  layers: FixtureLayer[];
};
