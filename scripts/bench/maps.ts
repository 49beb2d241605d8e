// Map benchmarks: a z15 lots tile cut from the pack vs @maplibre/geojson-vt on the same features, the
// densest demo tile's CPU and bytes (raw and gzipped), and search suggestions per query.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { GeoJSONVT } from "@maplibre/geojson-vt";
import { featureToGeometry } from "../../src/geo/columns.ts";
import { suggest } from "../../src/geocode/suggest.ts";
import { decodePack } from "../../src/packs/decode.ts";
import { featuresInBox } from "../../src/packs/lookup.ts";
import type { Pack } from "../../src/packs/types.ts";
import { cutTile } from "../../src/tiles/cut.ts";
import { BUFFER, type TileCoord, tileBBox, tileOf } from "../../src/tiles/math.ts";
import { type BenchResult, formatResults, median } from "./result.ts";

function loadPack(file: string): Pack {
  const b = readFileSync(new URL(`../../packs/${file}`, import.meta.url));
  return decodePack(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
}

function timeEach(n: number, fn: (i: number) => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

// Every z15 tile over the pack, with how many lots the index finds in it (buffer included).
function z15Tiles(pack: Pack): { t: TileCoord; lots: number }[] {
  const [w, s, e, n] = pack.bbox;
  const z = 15;
  const parcels = pack.layers.get("parcels");
  if (!parcels) return [];
  const out: { t: TileCoord; lots: number }[] = [];
  const nw = tileOf(w, n, z);
  const se = tileOf(e, s, z);
  for (let x = nw.x; x <= se.x; x++)
    for (let y = nw.y; y <= se.y; y++) {
      const [bw, bs, be, bn] = tileBBox({ z, x, y }, BUFFER);
      out.push({ t: { z, x, y }, lots: featuresInBox(parcels, bw, bs, be, bn).length });
    }
  return out.sort((a, b) => b.lots - a.lots);
}

function lotsTileBench(pack: Pack, out: BenchResult[]): void {
  const parcels = pack.layers.get("parcels");
  if (!parcels) return;
  const [dense] = z15Tiles(pack);
  if (!dense) return;
  const { t } = dense;
  const geojson: GeoJSON.FeatureCollection = {
    type: "FeatureCollection",
    features: Array.from({ length: parcels.count }, (_, i) => ({
      type: "Feature" as const,
      id: i,
      geometry: featureToGeometry(parcels, i),
      properties: { lot_id: parcels.props(i).lot_id, area_m2: parcels.props(i).area_m2 },
    })),
  };
  const options = { maxZoom: 16, indexMaxZoom: 5, extent: 4096, buffer: BUFFER, tolerance: 1 };
  const N = 30;
  // geojson-vt caches every tile it cuts: each sample gets a fresh index, built outside the timed cut.
  const indexes: GeoJSONVT[] = [];
  const builds = timeEach(N, () => indexes.push(new GeoJSONVT(geojson, options)));
  const vt = median(timeEach(N, (i) => indexes[i]?.getTile(t.z, t.x, t.y)));
  // The same features on our side: the pack seen with its lots layer only.
  const lotsOnly: Pack = { ...pack, layers: new Map([["parcels", parcels]]) };
  for (let i = 0; i < 20; i++) cutTile(lotsOnly, t);
  const ours = median(timeEach(200, () => cutTile(lotsOnly, t)));
  out.push({
    name: `z15 lots tile ${t.x}/${t.y} (${dense.lots} lots), cut + MVT`,
    value: ours,
    unit: "ms",
    baseline: vt,
    ratio: vt / ours,
    note: "baseline: geojson-vt getTile on a fresh index, cut only, no MVT encoding; need x3",
  });
  out.push({ name: "geojson-vt index build (all lots, to z5)", value: median(builds), unit: "ms" });
}

function densestTileBench(pack: Pack, out: BenchResult[]): void {
  // Densest by bytes over every z15 tile of the pack, all layers.
  let best: { t: TileCoord; bytes: Uint8Array } | undefined;
  for (const { t } of z15Tiles(pack)) {
    const bytes = cutTile(pack, t);
    if (bytes && (!best || bytes.length > best.bytes.length)) best = { t, bytes };
  }
  if (!best) return;
  const { t, bytes } = best;
  const cpu = median(timeEach(200, () => cutTile(pack, t)));
  out.push({ name: `densest demo tile 15/${t.x}/${t.y}, all layers`, value: cpu, unit: "ms", note: "need < 5 ms" });
  out.push({ name: "  its bytes, raw", value: bytes.length, unit: "B" });
  out.push({ name: "  its bytes, gzipped", value: gzipSync(bytes).length, unit: "B" });
}

function suggestBench(packs: Pack[], out: BenchResult[]): void {
  const queries = [
    "Par",
    "Paramatta",
    "Newtwon",
    "North S",
    "Sydney",
    "Bondi Junc",
    "6//DP1813990",
    "qqqzzz",
    "Ma",
    "Strathfeild",
  ];
  for (const q of queries) suggest(packs, q, 8); // builds the indexes once
  const rounds = 200;
  const samples = timeEach(rounds, () => {
    for (const q of queries) suggest(packs, q, 8);
  }).map((ms) => ms / queries.length);
  const suburbs = packs.reduce((n, p) => n + (p.layers.get("suburbs")?.count ?? 0), 0);
  out.push({
    name: `suggest, per query (${suburbs} suburbs)`,
    value: median(samples) * 1000,
    unit: "µs",
    note: "need < 1000 µs",
  });
}

export async function runMapBenches(): Promise<BenchResult[]> {
  const demo = loadPack("sydney-demo.pack");
  const suburbs = loadPack("sydney-suburbs.pack");
  const out: BenchResult[] = [];
  lotsTileBench(demo, out);
  densestTileBench(demo, out);
  suggestBench([demo, suburbs], out);
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(formatResults(await runMapBenches()));
}
