// Vector tiles and suggestions on the demo packs: our cutter against @maplibre/geojson-vt on the same lots.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { GeoJSONVT } from "@maplibre/geojson-vt";
import { featureToGeometry } from "../../src/geo/columns.ts";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { featuresInBox } from "../../src/packs/lookup.ts";
import type { Pack } from "../../src/packs/types.ts";
import { cutTile } from "../../src/tiles/cut.ts";
import { tileBBox, tileOf, type TileCoord } from "../../src/tiles/math.ts";
import { suggest } from "../../src/geocode/suggest.ts";
import { normaliseName } from "../../src/geocode/gazetteer.ts";
import { type BenchResult, median } from "./result.ts";
import { runImportCoverBenches } from "./tiles-import.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cpuUs = () => {
  const u = process.threadCpuUsage();
  return u.user + u.system;
};

function lotsTiles(pack: Pack, z: number): TileCoord[] {
  const lots = pack.layers.get("parcels");
  if (!lots) throw new Error("no parcels");
  const seen = new Map<string, TileCoord>();
  for (let i = 0; i < lots.count; i++) {
    const t = tileOf(
      lots.coords[
        2 * (lots.ringOffsets[lots.polyOffsets[lots.featureOffsets[i] as number] as number] as number)
      ] as number,
      lots.coords[
        2 * (lots.ringOffsets[lots.polyOffsets[lots.featureOffsets[i] as number] as number] as number) + 1
      ] as number,
      z,
    );
    seen.set(`${t.x}/${t.y}`, t);
  }
  return [...seen.values()];
}

export async function runTileBenches(): Promise<BenchResult[]> {
  const pack = readPackBytes(readFileSync(`${root}packs/sydney-demo.pack`), "sydney-demo.pack");
  const lots = pack.layers.get("parcels");
  if (!lots) throw new Error("no parcels");
  // The same features, as GeoJSON, with the same properties, for the baseline.
  const features = Array.from({ length: lots.count }, (_, i) => ({
    type: "Feature" as const,
    properties: lots.props(i),
    geometry: featureToGeometry(lots, i),
  }));
  const onlyLots = { ...pack, layers: new Map([["parcels", lots]]) };
  const tiles = lotsTiles(pack, 15);
  const results: BenchResult[] = [];

  // Warm both up on every tile once.
  for (const t of tiles) cutTile(onlyLots, t);
  let t0 = cpuUs();
  const index = new GeoJSONVT({ type: "FeatureCollection", features }, { maxZoom: 16, indexMaxZoom: 5 });
  const buildUs = cpuUs() - t0;

  // geojson-vt caches every tile it cuts, so each round uses a fresh index (its build timed apart and subtracted).
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < 5; round++) {
    t0 = cpuUs();
    for (const t of tiles) cutTile(onlyLots, t);
    ours.push((cpuUs() - t0) / tiles.length);
    const fresh = new GeoJSONVT({ type: "FeatureCollection", features }, { maxZoom: 16, indexMaxZoom: 5 });
    t0 = cpuUs();
    for (const t of tiles) fresh.getTile(t.z, t.x, t.y);
    theirs.push((cpuUs() - t0) / tiles.length);
  }
  void index;
  const o = median(ours);
  const b = median(theirs);
  results.push({
    name: `z15 lots tile, ${tiles.length} tiles (MVT encoded)`,
    value: o,
    unit: "us/tile",
    baseline: b,
    ratio: b / o,
    note: "baseline geojson-vt getTile, not encoded",
  });
  results.push({ name: "geojson-vt index build (amortised, apart)", value: buildUs / 1000, unit: "ms" });

  // The densest z15 tile of the demo pack, all layers.
  let densest = tiles[0] as TileCoord;
  let most = 0;
  for (const t of tiles) {
    const [w, s, e, n] = tileBBox(t);
    const k = featuresInBox(lots, w, s, e, n).length;
    if (k > most) [densest, most] = [t, k];
  }
  // The CPU clock ticks coarsely (4 ms here): each sample is 20 cuts.
  const samples: number[] = [];
  let bytes: Uint8Array = new Uint8Array();
  for (let i = 0; i < 10; i++) {
    t0 = cpuUs();
    for (let k = 0; k < 20; k++) bytes = cutTile(pack, densest) ?? new Uint8Array();
    samples.push((cpuUs() - t0) / 20);
  }
  results.push({
    name: `densest z15 tile (${most} lots, every layer)`,
    value: median(samples) / 1000,
    unit: "ms CPU",
    note: "goal < 5 ms",
  });
  results.push({ name: "  its bytes raw", value: bytes.length / 1024, unit: "KiB" });
  results.push({ name: "  its bytes gzipped", value: gzipSync(bytes).length / 1024, unit: "KiB" });

  // Suggestions over the whole gazetteer (648 real suburbs) and the demo lots.
  const packs = [readPackBytes(readFileSync(`${root}packs/sydney-suburbs.pack`), "sydney-suburbs.pack"), pack];
  const suburbs = packs[0]?.layers.get("suburbs");
  if (!suburbs) throw new Error("no suburbs");
  const names = Array.from({ length: suburbs.count }, (_, i) => normaliseName(String(suburbs.props(i).name)));
  const queries = ["parr", "Paramatta", "newtwn", "st iv", "Hills", "cabra", "epping", "bondi junct", "zzz", "m"];
  suggest(packs, "warm", 8);
  const per: number[] = [];
  for (let round = 0; round < 20; round++) {
    t0 = cpuUs();
    for (const q of queries) suggest(packs, q, 8);
    per.push((cpuUs() - t0) / queries.length);
  }
  // Baseline: the obvious scan, a full Levenshtein distance to every name, sorted.
  const lev = (a: string, b: string) => {
    const d = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = d[0] as number;
      d[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = d[j] as number;
        d[j] = Math.min((d[j] as number) + 1, (d[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return d[b.length] as number;
  };
  const base: number[] = [];
  for (let round = 0; round < 5; round++) {
    t0 = cpuUs();
    for (const q of queries) {
      const nq = normaliseName(q);
      names
        .map((n) => [lev(nq, n.slice(0, nq.length + 2)), n] as const)
        .sort((x, y) => x[0] - y[0])
        .slice(0, 8);
    }
    base.push((cpuUs() - t0) / queries.length);
  }
  const s = median(per);
  const sb = median(base);
  results.push({
    name: `suggest over ${names.length} suburbs + lots`,
    value: s,
    unit: "us/query",
    baseline: sb,
    ratio: sb / s,
    note: "baseline: Levenshtein scan; goal < 1000 us",
  });
  // v2: the world's tiles over an imported council, its lots under the import's not drawn (issue 56).
  results.push(...(await runImportCoverBenches()));
  return results;
}
