// Small synthetic overlay layers over an area, as GeoJSON with the Planning Portal's field names: the builder's bench and test input.
//
// Zoning in current Standard Instrument codes on a grid, the controls on grids of their own that cut through lots,
// flood bands, bushfire edges, heritage items and conservation areas, stations and suburbs; deterministic from a seed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BBox } from "../../../src/geo/bbox.ts";
import { seededRandom } from "../random.ts";

type Feature = { type: "Feature"; properties: Record<string, unknown>; geometry: unknown };

const ZONES: [string, string, number][] = [
  ["R2", "Low Density Residential", 0.46],
  ["R3", "Medium Density Residential", 0.14],
  ["R4", "High Density Residential", 0.08],
  ["E1", "Local Centre", 0.05],
  ["E2", "Commercial Centre", 0.02],
  ["MU1", "Mixed Use", 0.04],
  ["E3", "Productivity Support", 0.03],
  ["E4", "General Industrial", 0.04],
  ["RE1", "Public Recreation", 0.08],
  ["SP2", "Infrastructure", 0.03],
  ["C2", "Environmental Conservation", 0.03],
];
const FSR = [0.5, 0.6, 0.9, 1.5, 2, 3];
const HEIGHT = [8.5, 9.5, 12, 18, 24, 36];
const LOT_SIZE = [300, 450, 550, 600, 700, 2000];
const EPI = "Synthetic Local Environmental Plan 2024";

function box(w: number, s: number, e: number, n: number): number[][][] {
  return [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ];
}

function pick<T>(xs: readonly T[], r: number): T {
  return xs[Math.min(xs.length - 1, Math.floor(r * xs.length))] as T;
}

// Cells of `size` degrees over the area, starting `offset` cells off its corner so grids do not line up.
function* cells(area: BBox, size: number, offset: number): Generator<[number, number, number, number, number]> {
  let k = 0;
  for (let y = area[1] - offset * size; y < area[3]; y += size) {
    for (let x = area[0] - offset * size; x < area[2]; x += size) yield [x, y, x + size, y + size, k++];
  }
}

function write(dir: string, name: string, features: Feature[]): string {
  const file = join(dir, `${name}.geojson`);
  writeFileSync(file, JSON.stringify({ type: "FeatureCollection", name, features }));
  return file;
}

/** Writes zoning, fsr, height, lot_size, flood, bushfire, heritage, transport and suburbs over `area`; returns their files. */
export function writeSyntheticOverlays(dir: string, area: BBox, seed = 7): Record<string, string> {
  const rnd = seededRandom(seed);
  // About 800 m, 1.1 km and 3 km at Sydney.
  const zoneCell = 0.008;
  const controlCell = 0.011;
  const zoning: Feature[] = [];
  for (const [w, s, e, n] of cells(area, zoneCell, 0)) {
    let r = rnd();
    let z = ZONES[0] as [string, string, number];
    for (const candidate of ZONES) {
      if (r < candidate[2]) {
        z = candidate;
        break;
      }
      r -= candidate[2];
    }
    zoning.push({
      type: "Feature",
      properties: { SYM_CODE: z[0], LAY_CLASS: z[1], EPI_NAME: EPI, LGA_NAME: "Synthetic", MAP_TYPE: "LZN" },
      geometry: { type: "Polygon", coordinates: box(w, s, e, n) },
    });
  }
  const control = (field: string, values: readonly number[], label: (v: number) => string, offset: number) => {
    const out: Feature[] = [];
    for (const [w, s, e, n] of cells(area, controlCell, offset)) {
      const v = pick(values, rnd());
      out.push({
        type: "Feature",
        properties: { [field]: v, LAY_CLASS: label(v), EPI_NAME: EPI, LEGIS_REF_CLAUSE: "Clause 4.3" },
        geometry: { type: "Polygon", coordinates: box(w, s, e, n) },
      });
    }
    return out;
  };
  const [w0, s0, e0, n0] = area;
  const flood: Feature[] = [];
  for (let y = s0 + 0.004; y < n0; y += 0.037) {
    flood.push({
      type: "Feature",
      properties: { LAY_CLASS: "Flood planning area", LAY_NAME: "Synthetic creek" },
      geometry: { type: "Polygon", coordinates: box(w0 - 0.01, y, e0 + 0.01, y + 0.0012) },
    });
  }
  const bushfire: Feature[] = [];
  for (let x = w0 + 0.02; x < e0; x += 0.05) {
    bushfire.push({
      type: "Feature",
      properties: { d_Category: rnd() < 0.5 ? "Vegetation Category 1" : "Vegetation Buffer" },
      geometry: { type: "Polygon", coordinates: box(x, s0 - 0.01, x + 0.003, n0 + 0.01) },
    });
  }
  const heritage: Feature[] = [];
  let item = 1;
  for (const [w, s, , , k] of cells(area, 0.004, 0.3)) {
    if (rnd() < 0.15) {
      const x = w + rnd() * 0.003;
      const y = s + rnd() * 0.003;
      heritage.push({
        type: "Feature",
        properties: {
          H_NAME: `Synthetic item ${item}`,
          SIG: "Local",
          H_ID: `I${item++}`,
          LAY_CLASS: "Item - General",
          EPI_NAME: EPI,
        },
        geometry: { type: "Polygon", coordinates: box(x, y, x + 0.0002, y + 0.0003) },
      });
    }
    if (k % 97 === 0) {
      heritage.push({
        type: "Feature",
        properties: {
          H_NAME: `Conservation area ${k}`,
          SIG: "Local",
          H_ID: `C${k}`,
          LAY_CLASS: "Conservation Area - General",
          EPI_NAME: EPI,
        },
        geometry: { type: "Polygon", coordinates: box(w, s, w + 0.004, s + 0.004) },
      });
    }
  }
  const transport: Feature[] = [];
  for (const [w, s, , , k] of cells(area, 0.022, 0.5)) {
    transport.push({
      type: "Feature",
      properties: { stop_name: `Synthetic ${k} Station`, mode: "train", stop_id: `S${k}` },
      geometry: { type: "Point", coordinates: [w + rnd() * 0.02, s + rnd() * 0.02] },
    });
  }
  const suburbs: Feature[] = [];
  for (const [w, s, e, n, k] of cells(area, 0.03, 0)) {
    suburbs.push({
      type: "Feature",
      properties: {
        SAL_NAME21: `Suburb ${k} (NSW)`,
        STE_NAME21: "New South Wales",
        SAL_CODE21: String(10_000 + k),
        lga: `LGA ${k >> 3}`,
      },
      geometry: { type: "Polygon", coordinates: box(w, s, e, n) },
    });
  }
  return {
    zoning: write(dir, "zoning", zoning),
    fsr: write(
      dir,
      "fsr",
      control("FSR", FSR, (v) => `${v}:1`, 0.37),
    ),
    height: write(
      dir,
      "height",
      control("MAX_B_H_M", HEIGHT, (v) => `${v} m`, 0.61),
    ),
    lot_size: write(
      dir,
      "lot_size",
      control("LOT_SIZE", LOT_SIZE, (v) => `${v} m²`, 0.23),
    ),
    flood: write(dir, "flood", flood),
    bushfire: write(dir, "bushfire", bushfire),
    heritage: write(dir, "heritage", heritage),
    transport: write(dir, "transport", transport),
    suburbs: write(dir, "suburbs", suburbs),
  };
}
