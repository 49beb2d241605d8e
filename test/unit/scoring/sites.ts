// Test sites built in the model's own projection, so a 20 m side measures exactly 20 m.
import type { LotPolygon, SiteFacts } from "../../../src/scoring/types.ts";

const R = 6_371_008.8;
const DEG = Math.PI / 180;

// Ring of metre offsets (x east, y north) about lon0/lat0, closed, in lon/lat.
export function ringAt(lat0: number, lon0: number, pts: [number, number][]): number[][] {
  const kx = R * Math.cos(lat0 * DEG) * DEG;
  const ky = R * DEG;
  const ring = pts.map(([x, y]) => [lon0 + x / kx, lat0 + y / ky]);
  const first = ring[0];
  if (first) ring.push([first[0]!, first[1]!]);
  return ring;
}

// Axis-aligned rectangle centred on lon0/lat0 (the bbox centre, which is the projection origin).
export function rectangle(lat0: number, lon0: number, widthM: number, depthM: number): LotPolygon {
  const w = widthM / 2,
    d = depthM / 2;
  return {
    type: "Polygon",
    coordinates: [
      ringAt(lat0, lon0, [
        [-w, -d],
        [w, -d],
        [w, d],
        [-w, d],
      ]),
    ],
  };
}

export const NEWTOWN = { lat: -33.8968, lon: 151.1794 };

// The worked example of docs/scoring.md, with the polygon exactly as printed there.
export const WORKED_EXAMPLE_RING: number[][] = [
  [151.1792917, -33.8969376],
  [151.1795083, -33.8969376],
  [151.1795083, -33.8966624],
  [151.1792917, -33.8966624],
  [151.1792917, -33.8969376],
];

export function workedExample(): SiteFacts {
  return {
    lotId: "12/DP34567",
    areaM2: 612,
    polygon: { type: "Polygon", coordinates: [WORKED_EXAMPLE_RING] },
    zones: [{ code: "R2", name: "Low Density Residential", share: 1, fsr: 0.5, heightM: 8.5, minLotSizeM2: 450 }],
    hazards: { flood: 0.38, bushfire: 0 },
    heritageShare: 0,
    heritageNames: [],
    nearestStop: { name: "St Peters station", mode: "train", distanceM: 450 },
    demoData: false,
  };
}

export function site(overrides: Partial<SiteFacts> = {}): SiteFacts {
  return { ...workedExample(), ...overrides };
}
