// Synthetic cadastral lots with precomputed fact columns, deterministic from a seed, for the v2 pack tests.
import { seededRandom } from "../../../../scripts/pack/random.ts";
import { featureAreaM2 } from "../../../../src/geo/geodesic-area.ts";
import { columnsFromGeometry } from "../../../../src/geo/columns.ts";
import type { AreaGeometry, Position } from "../../../../src/geo/types.ts";
import type { FeatureInput, PackOptions } from "../../../../src/packs/paged/encode.ts";
import type { ColumnSpec } from "../../../../src/packs/paged/schema.ts";

export const COLUMNS: ColumnSpec[] = [
  { name: "lot_id", type: "text" },
  { name: "zone", type: "dict" },
  { name: "zone_share", type: "u8", scale: 100 },
  { name: "fsr", type: "u16", scale: 100 },
  { name: "height_m", type: "u16", scale: 10 },
  { name: "min_lot_m2", type: "u16" },
  { name: "flood_share", type: "u8", scale: 100 },
  { name: "bushfire_share", type: "u8", scale: 100 },
  // 0 none, 1 heritage item on the lot, 2 in a conservation area, 3 both.
  { name: "heritage", type: "u8" },
  { name: "station", type: "dict" },
  { name: "station_m", type: "u16" },
  { name: "centre_m", type: "u16" },
  { name: "frontage_m", type: "u16", scale: 10 },
  { name: "area_m2", type: "u32", scale: 100 },
  { name: "suburb", type: "dict" },
  { name: "lga", type: "dict" },
];

export function packOptions(pageBytes = 16 * 1024): PackOptions {
  return {
    id: "test-lots",
    version: "2026-01-01",
    columns: COLUMNS,
    lotIdColumn: "lot_id",
    summary: {
      zone: "zone",
      max: ["area_m2", "fsr", "height_m"],
      flags: ["flood_share", "bushfire_share", "heritage"],
    },
    asAt: { cadastre: "2025-12-01", zoning: "2025-11-15" },
    info: { title: "Synthetic lots", synthetic: "true" },
    pageBytes,
  };
}

const ZONES = ["R2", "R3", "R4", "E1", "E2", "MU1", "RE1", "SP2", "C2"];
const M_LAT = 1 / 111_320;
const M_LON = 1 / (111_320 * Math.cos((33.8 * Math.PI) / 180));

export type Lot = FeatureInput & { geometry: AreaGeometry; id: string; centre: [number, number] };

/** `count` lots in street blocks of 2 x 10 lots (15 m x 40 m, 5 to 7 vertices), one deposited plan per block. */
export function makeLots(count: number, seed = 1): Lot[] {
  const rnd = seededRandom(seed);
  const lots: Lot[] = [];
  const blocksPerRow = Math.max(1, Math.ceil(Math.sqrt(count / 20)));
  for (let k = 0; lots.length < count; k++) {
    const bx = k % blocksPerRow;
    const by = Math.floor(k / blocksPerRow);
    // Blocks are 150 m x 80 m plus a 20 m street.
    const x0 = 151.0 + bx * 170 * M_LON;
    const y0 = -33.9 + by * 100 * M_LAT;
    const plan = 1000 + k;
    const zone = ZONES[Math.floor(rnd() * ZONES.length)] as string;
    const suburb = `Suburb ${Math.floor(bx / 8)}-${Math.floor(by / 8)}`;
    for (let i = 0; i < 20 && lots.length < count; i++) {
      const col = i % 10;
      const row = Math.floor(i / 10);
      const w = x0 + col * 15 * M_LON;
      const e = w + 15 * M_LON;
      const s = y0 + row * 40 * M_LAT;
      const n = s + 40 * M_LAT;
      const ring: Position[] = [
        [w, s],
        [e, s],
      ];
      // Extra vertices along the east and north edges (kinks in real boundaries), 1 to 3 of them.
      const extra = 1 + Math.floor(rnd() * 3);
      if (extra >= 1) ring.push([e, s + 20 * M_LAT]);
      ring.push([e, n]);
      if (extra >= 2) ring.push([w + 7 * M_LON, n + (rnd() - 0.5) * 0.5 * M_LAT]);
      ring.push([w, n]);
      if (extra >= 3) ring.push([w, s + 13 * M_LAT]);
      ring.push([w, s]);
      const id = `${i + 1}//DP${plan}`;
      const geometry: AreaGeometry = { type: "Polygon", coordinates: [ring] };
      const flood = rnd() < 0.1 ? Math.round(rnd() * 100) / 100 : 0;
      lots.push({
        id,
        centre: [(w + e) / 2, (s + n) / 2],
        geometry,
        values: [
          id,
          zone,
          1,
          zone === "R2" ? 0.5 : 1.5,
          zone === "R2" ? 8.5 : 21,
          zone === "R2" ? 450 : 0,
          flood,
          rnd() < 0.05 ? 0.4 : 0,
          rnd() < 0.02 ? 1 : 0,
          `Station ${Math.floor(bx / 20)}`,
          Math.floor(rnd() * 3000),
          Math.floor(rnd() * 5000),
          15,
          // Area is a build-time fact from the unquantised geometry.
          featureAreaM2(columnsFromGeometry(geometry), 0),
          suburb,
          `LGA ${Math.floor(bx / 40)}`,
        ],
      });
    }
  }
  return lots;
}
