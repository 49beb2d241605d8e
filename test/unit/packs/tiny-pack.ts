// A hand-built pack whose answers can be worked out on paper: unit squares of 0.001 degrees near Sydney.
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";
import type { LayerInput } from "../../../src/packs/types.ts";

export const X0 = 151.1;
export const Y0 = -33.9;
export const D = 0.001;

export function square(x0: number, y0: number, x1: number, y1: number): number[][] {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

function layer(
  name: string,
  fields: string[],
  geoms: AreaGeometry[],
  rows: unknown[][],
  categoryField?: string,
  synthetic = true,
): LayerInput {
  return {
    name,
    synthetic,
    categoryField,
    fields,
    geometry: { kind: "polygon", ...columnsFromGeometries(geoms) },
    row: (i) => rows[i] as unknown[],
  };
}

// Parcel 0: plain square. Parcel 1: a square with a courtyard hole. Parcel 2: the courtyard itself. Parcel 3: two parts.
export const PARCELS: AreaGeometry[] = [
  { type: "Polygon", coordinates: [square(X0, Y0, X0 + D, Y0 + D)] },
  {
    type: "Polygon",
    coordinates: [square(X0 + 2 * D, Y0, X0 + 5 * D, Y0 + 3 * D), square(X0 + 3 * D, Y0 + D, X0 + 4 * D, Y0 + 2 * D)],
  },
  { type: "Polygon", coordinates: [square(X0 + 3 * D, Y0 + D, X0 + 4 * D, Y0 + 2 * D)] },
  {
    type: "MultiPolygon",
    coordinates: [
      [square(X0, Y0 + 4 * D, X0 + D, Y0 + 5 * D)],
      [square(X0 + 2 * D, Y0 + 4 * D, X0 + 3 * D, Y0 + 5 * D)],
    ],
  },
];

export function tinyPackBytes(id = "tiny", lotPrefix = ""): Uint8Array {
  const lotIds = ["1//DP1001", "2//DP1001", "3//DP1001", "7/2/DP758001"].map((l) => lotPrefix + l);
  return encodePack({
    id,
    version: "test-1",
    meta: { title: "Tiny test pack", attribution: "hand-made", licence: "CC0", note: "unit test fixture" },
    layers: [
      layer(
        "parcels",
        ["lot_id", "area_m2"],
        PARCELS,
        lotIds.map((l) => [l, null]),
        undefined,
        false,
      ),
      // Zones split parcel 0 at a quarter of its width: R4 west, R2 east.
      layer(
        "zones",
        ["zone", "zone_name", "fsr", "height_m", "min_lot_m2"],
        [
          { type: "Polygon", coordinates: [square(X0 - D, Y0 - D, X0 + D / 4, Y0 + 6 * D)] },
          { type: "Polygon", coordinates: [square(X0 + D / 4, Y0 - D, X0 + 6 * D, Y0 + 6 * D)] },
        ],
        [
          ["R4", "High Density Residential", 2, 22, 1000],
          ["R2", "Low Density Residential", 0.5, 9.5, 450],
        ],
        "zone",
      ),
      // Flood: west half of parcel 0 twice over (overlapping features of one category), plus a floodway over its west quarter.
      layer(
        "flood",
        ["category", "name"],
        [
          { type: "Polygon", coordinates: [square(X0 - D, Y0 - D, X0 + D / 2, Y0 + 2 * D)] },
          { type: "Polygon", coordinates: [square(X0 - D / 2, Y0 - D / 2, X0 + D / 2, Y0 + 2 * D)] },
          { type: "Polygon", coordinates: [square(X0 - D, Y0 - D, X0 + D / 4, Y0 + 2 * D)] },
        ],
        [
          ["Flood planning area", "a"],
          ["Flood planning area", "b"],
          ["Floodway", "c"],
        ],
        "category",
      ),
      {
        name: "transport",
        synthetic: true,
        categoryField: "mode",
        fields: ["name", "mode", "stop_id"],
        geometry: { kind: "point", coords: Float64Array.from([X0, Y0 - 0.01, X0 + 0.02, Y0, X0 + 0.001, Y0 - 0.001]) },
        row: (i) =>
          [
            ["South stop", "bus", "S"],
            ["East station", "train", "E"],
            ["Corner stop", "bus", "C"],
          ][i] as unknown[],
      },
    ],
  });
}
