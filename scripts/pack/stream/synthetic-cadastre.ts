// A synthetic NSW cadastre export as GeoJSON, written streamed, of a given size: the builder's bench and test input.
//
// Features carry the export's own fields (about 1 KB a lot with full-precision coordinates, as the real export has),
// laid out as street blocks of 2 x 10 lots of 15 m x 40 m, one deposited plan per block, from a seed.
import { closeSync, openSync, writeSync } from "node:fs";
import type { BBox } from "../../../src/geo/bbox.ts";
import { seededRandom } from "../random.ts";

export type CadastreOptions = {
  // Stop once the file reaches this many bytes, or after this many lots (whichever is given; lots wins).
  bytes?: number;
  lots?: number;
  seed?: number;
  // South-west corner of the first block.
  origin?: [number, number];
};

export type CadastreFile = { lots: number; bytes: number; bbox: BBox };

const M_LAT = 1 / 111_320;
const mLon = (lat: number) => 1 / (111_320 * Math.cos((lat * Math.PI) / 180));
export const SYDNEY_ORIGIN: [number, number] = [150.75, -34.05];
const LOT_W = 15;
const LOT_D = 40;
// A block is 10 lots wide and 2 deep, with a 20 m street on two sides.
const PITCH_X = 10 * LOT_W + 20;
const PITCH_Y = 2 * LOT_D + 20;
const HEAD =
  '{"type":"FeatureCollection","name":"Lot","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":[\n';

/** Blocks per row for `lots` lots, so the cadastre is about square. */
export function blocksPerRow(lots: number): number {
  return Math.max(1, Math.ceil(Math.sqrt(lots / 20) * Math.sqrt(PITCH_Y / PITCH_X)));
}

/** The area `lots` lots cover from `origin` (for sizing overlays before the cadastre exists). */
export function cadastreExtent(lots: number, origin: [number, number] = SYDNEY_ORIGIN): BBox {
  const per = blocksPerRow(lots);
  const rows = Math.ceil(lots / 20 / per);
  return [origin[0], origin[1], origin[0] + per * PITCH_X * mLon(origin[1]), origin[1] + rows * PITCH_Y * M_LAT];
}

function feature(n: number, ring: number[][], rnd: () => number): string {
  const block = Math.floor(n / 20);
  const lot = (n % 20) + 1;
  const plan = 1_000_000 + block;
  // One block in eight is an old crown plan with sections, as in the real cadastre.
  const section = block % 8 === 7 ? String((block % 40) + 1) : null;
  const area = Math.round((590 + rnd() * 20) * 100) / 100;
  const props = {
    objectid: n + 1,
    cadid: 100_000_000 + n,
    createdate: 1296777600000,
    modifieddate: 1554336000000 + (n % 1000) * 86_400_000,
    controllingauthorityoid: 1,
    planoid: 5_000_000 + block,
    plannumber: plan,
    planlabel: `DP${plan}`,
    itstitlestatus: 1,
    itslotid: 2_000_000 + n,
    stratumlevel: null,
    hasstratum: 0,
    classsubtype: 1,
    lotnumber: String(lot),
    sectionnumber: section,
    planlotarea: n % 3 === 0 ? area : null,
    planlotareaunits: n % 3 === 0 ? "m2" : null,
    startdate: 1296777600000,
    enddate: 32503680000000,
    lastupdate: 1554336000000,
    msoid: 7_000_000 + n,
    centroidid: null,
    shapeuuid: `${(n * 2654435761).toString(16).padStart(8, "0").slice(-8)}-8b4d-4e5f-9a6b-7c8d9e0f1a2b`,
    changetype: "M",
    lotidstring: `${lot}/${section ?? ""}/DP${plan}`,
    processstate: null,
    urbanity: "U",
    Shape__Length: 110 + rnd(),
    Shape__Area: area * 1.45,
  };
  return JSON.stringify({
    type: "Feature",
    id: n + 1,
    properties: props,
    geometry: { type: "Polygon", coordinates: [ring] },
  });
}

/** Writes the cadastre to `file`; returns its lot count, size and bbox. */
export function writeSyntheticCadastre(file: string, opts: CadastreOptions): CadastreFile {
  const rnd = seededRandom(opts.seed ?? 1);
  const origin = opts.origin ?? SYDNEY_ORIGIN;
  const sample = feature(0, [[origin[0], origin[1]]].concat(Array(5).fill([origin[0], origin[1]])), () => 0.5);
  const planned = opts.lots ?? Math.ceil((opts.bytes ?? 1e6) / (sample.length + 2));
  const per = blocksPerRow(planned);
  const kx = mLon(origin[1]);
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const fd = openSync(file, "w");
  let buf = HEAD;
  let bytes = 0;
  let n = 0;
  const more = () => (opts.lots !== undefined ? n < opts.lots : bytes + buf.length < (opts.bytes ?? 1e6));
  try {
    while (more()) {
      const block = Math.floor(n / 20);
      const bx = (block % per) * PITCH_X;
      const by = Math.floor(block / per) * PITCH_Y;
      const x0 = bx + ((n % 20) % 10) * LOT_W;
      const y0 = by + Math.floor((n % 20) / 10) * LOT_D;
      // Corners jittered by up to half a metre; one lot in three has a splayed corner (a fifth vertex).
      const j = () => rnd() - 0.5;
      const pts: [number, number][] = [
        [x0 + j(), y0 + j()],
        [x0 + LOT_W + j(), y0 + j()],
        [x0 + LOT_W + j(), y0 + LOT_D + j()],
        [x0 + j(), y0 + LOT_D + j()],
      ];
      if (n % 3 === 0) pts.splice(3, 0, [x0 + LOT_W / 2 + j(), y0 + LOT_D + 1 + j()]);
      const ring = pts.map(([x, y]) => [origin[0] + x * kx, origin[1] + y * M_LAT]);
      ring.push(ring[0] as number[]);
      for (const [x, y] of ring) {
        if ((x as number) < bbox[0]) bbox[0] = x as number;
        if ((y as number) < bbox[1]) bbox[1] = y as number;
        if ((x as number) > bbox[2]) bbox[2] = x as number;
        if ((y as number) > bbox[3]) bbox[3] = y as number;
      }
      buf += (n === 0 ? "" : ",\n") + feature(n, ring, rnd);
      n++;
      if (buf.length >= 1 << 20) {
        bytes += writeSync(fd, buf);
        buf = "";
      }
    }
    buf += "\n]}\n";
    bytes += writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
  return { lots: n, bytes, bbox };
}
