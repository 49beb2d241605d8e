// z15 lots tiles of the demo from v2 (pages cached) against geojson-vt on the same lots, as tiles.ts measures v1.
import { GeoJSONVT } from "@maplibre/geojson-vt";
import { featureAreaM2 } from "../../../src/geo/geodesic-area.ts";
import { featureToGeometry } from "../../../src/geo/columns.ts";
import { pagePack } from "../../../src/packs/paged/index.ts";
import { cutTile } from "../../../src/tiles/cut.ts";
import { tileProps } from "../../../src/tiles/layers.ts";
import { type TileCoord, tileOf } from "../../../src/tiles/math.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import type { BenchResult } from "../result.ts";
import { median } from "../result.ts";
import { claim, cpuUs } from "./common.ts";
import type { Demo } from "./demo.ts";

// geojson-vt's first rounds run unoptimised code (about 5x slower): warmed up as ours is, then the median of many.
const WARM_ROUNDS = 5;
const ROUNDS = 11;
// The thread's CPU clock ticks every few milliseconds: each round cuts every tile this many times (geojson-vt on a
// fresh index each time, as it keeps what it cuts), so a round spans many ticks.
const REPEAT = 10;

export async function tileBench({ v1, v2 }: Demo): Promise<BenchResult[]> {
  const s = await v2.snapshot();
  const { pages } = await v2.pagesForBox(s.root.meta.bbox);
  // The same lots with the attributes a v2 tile carries (area added as the tile's dictionary adds it).
  const features = pages.flatMap((page) => {
    const layer = pagePack(s, page).layers.get("parcels");
    if (!layer) return [];
    return Array.from({ length: layer.count }, (_, i) => ({
      type: "Feature" as const,
      properties: { ...tileProps(layer, i), area_m2: Math.round(featureAreaM2(layer, i)) },
      geometry: featureToGeometry(layer, i),
    }));
  });
  const seen = new Map<string, TileCoord>();
  for (const f of features) {
    const g = f.geometry;
    const p = g.type === "Polygon" ? g.coordinates[0]?.[0] : g.coordinates[0]?.[0]?.[0];
    if (!p) continue;
    const t = tileOf(p[0] as number, p[1] as number, 15);
    seen.set(`${t.x}/${t.y}`, t);
  }
  const tiles = [...seen.values()];
  const lots = v1.layers.get("parcels");
  if (!lots) throw new Error("demo has no parcels");
  const onlyLots = { ...v1, layers: new Map([["parcels", lots]]) };
  const opts = { maxZoom: 16, indexMaxZoom: 5 };
  // Every path warmed on every tile, geojson-vt on fresh indexes as it is timed.
  for (let round = 0; round < WARM_ROUNDS; round++) {
    const fresh = new GeoJSONVT({ type: "FeatureCollection", features }, opts);
    for (const t of tiles) {
      await pagedTile(v2, t);
      cutTile(onlyLots, t);
      fresh.getTile(t.z, t.x, t.y);
    }
  }
  const ours: number[] = [];
  const today: number[] = [];
  const theirs: number[] = [];
  const gc = globalThis.gc ?? (() => {});
  // Each path's passes timed after a full collection: each starts from the same heap, the others' garbage
  // (geojson-vt's index builds above all) collected outside its timing.
  const timed = async (pass: () => unknown): Promise<number> => {
    gc();
    const t0 = cpuUs();
    for (let r = 0; r < REPEAT; r++) await pass();
    return (cpuUs() - t0) / (REPEAT * tiles.length);
  };
  for (let round = 0; round < ROUNDS; round++) {
    // geojson-vt keeps every tile it cuts, so each pass gets a fresh index, built outside the timing and kept
    // through the round: all three paths are timed over the same live heap.
    const fresh = Array.from({ length: REPEAT }, () => new GeoJSONVT({ type: "FeatureCollection", features }, opts));
    let pass = 0;
    theirs.push(
      await timed(() => {
        const index = fresh[pass++] as GeoJSONVT;
        for (const t of tiles) index.getTile(t.z, t.x, t.y);
      }),
    );
    ours.push(
      await timed(async () => {
        for (const t of tiles) await pagedTile(v2, t);
      }),
    );
    today.push(
      await timed(() => {
        for (const t of tiles) cutTile(onlyLots, t);
      }),
    );
  }
  const o = median(ours);
  const v = median(today);
  const b = median(theirs);
  return [
    {
      name: `z15 lots tile, demo, ${tiles.length} tiles: v2 pagedTile`,
      value: o,
      unit: "us/tile",
      baseline: b,
      ratio: b / o,
      note: `${claim(b / o >= 3, ">= 3x")}; pages cached, MVT encoded; baseline geojson-vt getTile (not encoded) over the same ${features.length} lots and attributes; median CPU of ${ROUNDS} rounds of ${REPEAT} passes after ${WARM_ROUNDS} to warm up, each path's passes after a full collection over the same live heap (scripts/bench/tiles.ts warms only ours)`,
    },
    {
      name: "  v1 cutTile, the same tiles (today)",
      value: v,
      unit: "us/tile",
      baseline: b,
      ratio: b / v,
      note: "scripts/bench/tiles.ts's path, lots layer only",
    },
  ];
}
