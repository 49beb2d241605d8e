// A square lot as an uploaded GeoJSON feature, for tests that upload lots packs.

/** A square lot of `half` degrees either side of (lng, lat), with `properties` (lot_id, address, ...). */
export function squareLot(properties: Record<string, string>, lng: number, lat: number, half = 0.00003) {
  const ring = [
    [lng - half, lat - half],
    [lng + half, lat - half],
    [lng + half, lat + half],
    [lng - half, lat + half],
    [lng - half, lat - half],
  ];
  return { type: "Feature", properties, geometry: { type: "Polygon", coordinates: [ring] } };
}
