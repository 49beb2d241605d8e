// GeoJSON geometry types the service takes, and Columns, the flat form packs and geometry code share.
export type Position = [number, number] | number[];
export type PolygonGeometry = { type: "Polygon"; coordinates: Position[][] };
export type MultiPolygonGeometry = { type: "MultiPolygon"; coordinates: Position[][][] };
export type PointGeometry = { type: "Point"; coordinates: Position };
export type LineStringGeometry = { type: "LineString"; coordinates: Position[] };
export type MultiLineStringGeometry = { type: "MultiLineString"; coordinates: Position[][] };
export type AreaGeometry = PolygonGeometry | MultiPolygonGeometry;

// Flat geometry shared by packs and kernels: vertices, then ring, polygon and feature ranges, each with a closing entry.
export type Columns = {
  coords: Float64Array;
  ringOffsets: Uint32Array;
  polyOffsets: Uint32Array;
  featureOffsets: Uint32Array;
};
