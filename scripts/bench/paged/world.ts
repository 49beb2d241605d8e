// A synthetic city of any number of lots for the v2 benches: lot i is computed from i alone, so millions of lots
// stream in Hilbert order without being held, and a query can aim inside lot i without reading the pack.
import type { AreaGeometry, Position } from "../../../src/geo/types.ts";
import {
  type FeatureInput,
  HERITAGE_AREA,
  HERITAGE_ITEM,
  hilbertOf,
  LOT_COLUMNS,
  LOT_ID_COLUMN,
  LOT_SUMMARY,
  type LotRecord,
  lotValues,
  type PackOptions,
} from "../../../src/packs/paged/index.ts";
import type { ZoneShare } from "../../../src/scoring/types.ts";

const LON0 = 150.6;
const LAT0 = -34.1;
const M_LAT = 1 / 111_320;
const M_LON = 1 / (111_320 * Math.cos((33.9 * Math.PI) / 180));
// Street blocks of 2 x 10 lots of 15 m x 40 m, with a 20 m street on two sides: 170 m x 100 m a block.
const LOTS_PER_BLOCK = 20;
const BLOCK_W = 170;
const BLOCK_H = 100;
// Suburbs are 8 x 8 blocks (1,280 lots), council areas 40 x 40 blocks, stations on a 24 x 40 block grid (~4 km).
const SUBURB_BLOCKS = 8;
const LGA_BLOCKS = 40;
const STATION_BX = 24;
const STATION_BY = 40;

// lowbias32: a well-mixed 32-bit hash, so lot i's draws need no state.
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform draw in [0, 1) for (key, salt), the same on every run. */
export function draw(key: number, salt: number): number {
  return mix(Math.imul(key, 0x9e3779b1) ^ mix(salt * 0x85ebca6b + 1)) / 4294967296;
}

type ZoneDef = { code: string; name: string; fsr: number | null; height: number | null; minLot: number | null };
// Current Standard Instrument zones with controls typical of each; weights are the share of blocks.
const ZONES: [ZoneDef, number][] = [
  [{ code: "R2", name: "Low Density Residential", fsr: 0.5, height: 8.5, minLot: 450 }, 52],
  [{ code: "R3", name: "Medium Density Residential", fsr: 0.75, height: 9.5, minLot: 300 }, 10],
  [{ code: "R4", name: "High Density Residential", fsr: 1.5, height: 15, minLot: null }, 8],
  [{ code: "E1", name: "Local Centre", fsr: 1.5, height: 12, minLot: null }, 4],
  [{ code: "E2", name: "Commercial Centre", fsr: 3, height: 24, minLot: null }, 1],
  [{ code: "E3", name: "Productivity Support", fsr: 1, height: 12, minLot: null }, 3],
  [{ code: "E4", name: "General Industrial", fsr: 1, height: 12, minLot: 1000 }, 3],
  [{ code: "MU1", name: "Mixed Use", fsr: 2, height: 18, minLot: null }, 3],
  [{ code: "RE1", name: "Public Recreation", fsr: null, height: null, minLot: null }, 6],
  [{ code: "SP2", name: "Infrastructure", fsr: null, height: null, minLot: null }, 4],
  [{ code: "C2", name: "Environmental Conservation", fsr: null, height: null, minLot: 400_000 }, 6],
];
const ZONE_TOTAL = ZONES.reduce((s, [, w]) => s + w, 0);
const STARTS = ["Ash", "Bel", "Carl", "Dun", "Elm", "Fair", "Glen", "Har", "Ing", "Kel", "Lang", "Mar", "Nor", "Oak"];
const ENDS = ["field", "wood", "ton", "ville", "more", "dale", "hurst", "mead", "bury", "leigh"];
const STREETS = ["Smith", "George", "Church", "Victoria", "Albert", "Railway", "King", "Queen", "Park", "High"];
const SUFFIX = ["Street", "Road", "Avenue", "Parade", "Crescent"];

function zoneOf(block: number): ZoneDef {
  let r = draw(block, 1) * ZONE_TOTAL;
  for (const [z, w] of ZONES) {
    r -= w;
    if (r < 0) return z;
  }
  return (ZONES[0] as [ZoneDef, number])[0];
}

const suburbName = (sx: number, sy: number): string =>
  `${STARTS[(sx * 7 + sy) % STARTS.length]}${ENDS[(sx + sy * 3) % ENDS.length]} ${sx}-${sy}`;
const zoneShare = (z: ZoneDef, share: number): ZoneShare => ({
  code: z.code,
  name: z.name,
  share,
  fsr: z.fsr,
  heightM: z.height,
  minLotSizeM2: z.minLot,
});

export class World {
  readonly lots: number;
  readonly blocksPerRow: number;
  readonly rows: number;
  // [w, s, e, n] of every lot.
  readonly bbox: [number, number, number, number];

  constructor(lots: number) {
    this.lots = lots;
    this.blocksPerRow = Math.max(1, Math.ceil(Math.sqrt(lots / LOTS_PER_BLOCK)));
    this.rows = Math.ceil(lots / LOTS_PER_BLOCK / this.blocksPerRow);
    this.bbox = [LON0, LAT0, LON0 + this.blocksPerRow * BLOCK_W * M_LON, LAT0 + this.rows * BLOCK_H * M_LAT];
  }

  /** Lot i's rectangle [w, s, e, n] (its kinks stay within half a metre of it). */
  rect(i: number): [number, number, number, number] {
    const k = Math.floor(i / LOTS_PER_BLOCK);
    const j = i % LOTS_PER_BLOCK;
    const x0 = LON0 + (k % this.blocksPerRow) * BLOCK_W * M_LON;
    const y0 = LAT0 + Math.floor(k / this.blocksPerRow) * BLOCK_H * M_LAT;
    const w = x0 + (j % 10) * 15 * M_LON;
    const s = y0 + Math.floor(j / 10) * 40 * M_LAT;
    return [w, s, w + 15 * M_LON, s + 40 * M_LAT];
  }

  /** A point well inside lot i (u, v in [0, 1) pick where), clear of its kinked edges. */
  pointIn(i: number, u: number, v: number): [number, number] {
    const [w, s] = this.rect(i);
    return [w + (1 + 13 * u) * M_LON, s + (2 + 36 * v) * M_LAT];
  }

  /** A uniform point over the whole city: on a lot or on a street. */
  anywhere(u: number, v: number): [number, number] {
    const [w, s, e, n] = this.bbox;
    return [w + u * (e - w), s + v * (n - s)];
  }

  /** The lots of the suburb holding lot i (8 x 8 blocks), for batches whose rows share pages. */
  suburbLots(i: number): number[] {
    const k = Math.floor(i / LOTS_PER_BLOCK);
    const sx = Math.floor((k % this.blocksPerRow) / SUBURB_BLOCKS) * SUBURB_BLOCKS;
    const sy = Math.floor(k / this.blocksPerRow / SUBURB_BLOCKS) * SUBURB_BLOCKS;
    const out: number[] = [];
    for (let by = sy; by < Math.min(this.rows, sy + SUBURB_BLOCKS); by++) {
      for (let bx = sx; bx < Math.min(this.blocksPerRow, sx + SUBURB_BLOCKS); bx++) {
        const b = by * this.blocksPerRow + bx;
        for (let j = 0; j < LOTS_PER_BLOCK; j++)
          if (b * LOTS_PER_BLOCK + j < this.lots) out.push(b * LOTS_PER_BLOCK + j);
      }
    }
    return out;
  }

  lotId(i: number): string {
    return `${(i % LOTS_PER_BLOCK) + 1}//DP${10_000 + Math.floor(i / LOTS_PER_BLOCK)}`;
  }

  /** Lot i's boundary: its rectangle with one to three kinks, as real boundaries have. */
  geometry(i: number): AreaGeometry {
    const [w, s, e, n] = this.rect(i);
    const extra = 1 + Math.floor(draw(i, 2) * 3);
    const ring: Position[] = [
      [w, s],
      [e, s],
      [e, s + 20 * M_LAT],
      [e, n],
    ];
    if (extra >= 2) ring.push([w + 7 * M_LON, n + (draw(i, 3) - 0.5) * 0.5 * M_LAT]);
    ring.push([w, n]);
    if (extra >= 3) ring.push([w, s + 13 * M_LAT]);
    ring.push([w, s]);
    return { type: "Polygon", coordinates: [ring] };
  }

  /** Lot i's facts as a lots pack stores them (every field the model reads, demo-marked). */
  record(i: number): LotRecord {
    const k = Math.floor(i / LOTS_PER_BLOCK);
    const j = i % LOTS_PER_BLOCK;
    const bx = k % this.blocksPerRow;
    const by = Math.floor(k / this.blocksPerRow);
    const zone = zoneOf(k);
    // Lots across a zone boundary (4%): shares as the overlay kernels give them, unrounded.
    const split = draw(i, 4) < 0.04;
    const main = 0.5 + 0.45 * draw(i, 13);
    const zones = split
      ? [zoneShare(zone, main), zoneShare(zoneOf(k + 1 + Math.floor(draw(i, 5) * 5)), 1 - main)]
      : [zoneShare(zone, 1)];
    const whole = (value: number | null, label: string) => (value === null ? [] : [{ value, share: 1, label }]);
    const controls = split
      ? {
          fsr: zones.flatMap((z) => (z.fsr === null ? [] : [{ value: z.fsr, share: z.share, label: `${z.fsr}:1` }])),
          heightM: zones.flatMap((z) =>
            z.heightM === null ? [] : [{ value: z.heightM, share: z.share, label: `${z.heightM} m` }],
          ),
          minLotSizeM2: [],
        }
      : {
          fsr: whole(zone.fsr, `${zone.fsr}:1`),
          heightM: whole(zone.height, `${zone.height} m`),
          minLotSizeM2: whole(zone.minLot, `${zone.minLot} m²`),
        };
    const flooded = draw(k, 6) < 0.1;
    const bushy = draw(k, 7) < 0.05;
    const conservation = draw(Math.floor(k / 4), 8) < 0.03;
    const item = draw(i, 9) < 0.02;
    const sx = Math.floor(bx / SUBURB_BLOCKS);
    const sy = Math.floor(by / SUBURB_BLOCKS);
    const stX = (Math.floor(bx / STATION_BX) + 0.5) * STATION_BX * BLOCK_W;
    const stY = (Math.floor(by / STATION_BY) + 0.5) * STATION_BY * BLOCK_H;
    const x = bx * BLOCK_W + (j % 10) * 15 + 7.5;
    const y = by * BLOCK_H + Math.floor(j / 10) * 40 + 20;
    const stationM = Math.hypot(x - stX, y - stY);
    const station = {
      name: `${suburbName(Math.floor(stX / BLOCK_W / SUBURB_BLOCKS), Math.floor(stY / BLOCK_H / SUBURB_BLOCKS))} Station`,
      mode: "train",
      distanceM: Math.round(stationM),
    };
    const street = `${STREETS[by % STREETS.length]} ${SUFFIX[bx % SUFFIX.length]}`;
    // As the cadastre's addresses read (and the demo pack's): number, street, suburb, state, postcode.
    const postcode = 2000 + ((Math.floor(bx / LGA_BLOCKS) * 7 + Math.floor(by / LGA_BLOCKS) * 13) % 800);
    const address = `${2 * (j % 10) + 1 + (j >= 10 ? 100 : 0)} ${street}, ${suburbName(sx, sy)} NSW ${postcode}`;
    const [w, s, e, n] = this.rect(i);
    const areaM2 = Math.round(((e - w) / M_LON) * ((n - s) / M_LAT) * 10) / 10;
    return {
      facts: {
        lotId: this.lotId(i),
        areaM2,
        zones,
        controls,
        hazards: {
          flood: flooded ? Math.round(draw(i, 10) * 1e4) / 1e4 : 0,
          bushfire: bushy ? Math.round(draw(i, 11) * 1e4) / 1e4 : 0,
        },
        heritageShare: item || conservation ? 1 : 0,
        heritageNames: [
          ...(item ? [`House, ${address}`] : []),
          ...(conservation ? [`${suburbName(sx, sy)} Conservation Area`] : []),
        ],
        nearestStop: station,
        // Only stations in this city: the nearest station is the nearest stop.
        nearestStation: station,
        demoData: true,
        // Every lot is a 15 m by 40 m rectangle.
        shape: { frontageM: 15, regularity: 1 },
      },
      place: {
        address,
        suburb: suburbName(sx, sy),
        lga: `City of ${STARTS[Math.floor(bx / LGA_BLOCKS) % STARTS.length]}${ENDS[Math.floor(by / LGA_BLOCKS) % ENDS.length]}`,
        frontageM: 15,
        centreM: Math.round(stationM * (0.6 + 0.3 * draw(k, 12))),
        heritageKind: (item ? HERITAGE_ITEM : 0) | (conservation ? HERITAGE_AREA : 0),
      },
    };
  }

  feature(i: number): FeatureInput {
    return { geometry: this.geometry(i), values: lotValues(this.record(i)) };
  }

  /** Lot numbers in Hilbert order of their box centres over the centres' bbox, as the pack builder orders them. */
  hilbertOrder(): Uint32Array {
    const c0 = this.rect(0);
    const half = [(c0[2] - c0[0]) / 2, (c0[3] - c0[1]) / 2] as const;
    const [w, s, e, n] = this.bbox;
    const centres: [number, number, number, number] = [w + half[0], s + half[1], e - half[0], n - half[1]];
    // (key << 32 | lot) sorts by key, lots of one Hilbert cell in lot order, in one native sort.
    const keys = new BigUint64Array(this.lots);
    for (let i = 0; i < this.lots; i++) {
      const [lw, ls, le, ln] = this.rect(i);
      keys[i] = (BigInt(hilbertOf((lw + le) / 2, (ls + ln) / 2, centres)) << 32n) | BigInt(i);
    }
    keys.sort();
    const order = new Uint32Array(this.lots);
    for (let i = 0; i < this.lots; i++) order[i] = Number((keys[i] as bigint) & 0xffffffffn);
    return order;
  }
}

export function worldPackOptions(world: World, id = "bench-city"): PackOptions {
  return {
    id,
    version: "bench",
    columns: LOT_COLUMNS,
    lotIdColumn: LOT_ID_COLUMN,
    summary: LOT_SUMMARY,
    asAt: { cadastre: "2026-01-01", zoning: "2026-01-01" },
    info: { title: `Synthetic city of ${world.lots} lots`, synthetic: "true" },
  };
}
