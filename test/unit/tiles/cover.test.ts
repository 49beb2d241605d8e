// A lots tile under a pack that outranks it (src/tiles/cover.ts, docs/design.md section 10): synthetic lots, and a
// higher pack holding the label points of some of them; those are not drawn, the rest are, and a lot reaching far
// from the tile is hidden by a higher lot round its label point outside the tile too.
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { beforeAll, describe, expect, it } from "vitest";
import { featureAreaM2 } from "../../../src/geo/geodesic-area.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import type { AreaGeometry, Position } from "../../../src/geo/types.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { type TileCoord, tileBBox, tileOf } from "../../../src/tiles/math.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import { type Lot, makeLots, packOptions } from "../packs/paged/fixture.ts";

const M_LON = 1 / (111_320 * Math.cos((33.8 * Math.PI) / 180));
const rect = (w: number, s: number, e: number, n: number): AreaGeometry => ({
  type: "Polygon",
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ] as Position[],
  ],
});

/** A lot like `like`, with its own id and outline. */
function lotLike(like: Lot, id: string, geometry: AreaGeometry): Lot {
  const values = [...like.values];
  values[0] = id;
  values[13] = featureAreaM2(columnsFromGeometry(geometry), 0);
  return { id, geometry, values, centre: [0, 0] };
}

// A strip 2.7 km long south of the blocks: its label point is 1.35 km from either end.
const LONG = { w: 150.97, e: 151.0, s: -33.9052, n: -33.905 };
const open = async (key: string, lots: readonly Lot[], id: string) =>
  new PagedPack(new MemorySource(key, await encodePack(lots, { ...packOptions(), id })), {
    cache: new PageCache(2 ** 28),
  });

let low: PagedPack;
let high: PagedPack;
let covered: Lot[];
let lows: Lot[];

beforeAll(async () => {
  const grid = makeLots(200, 3);
  const first = grid[0] as Lot;
  lows = [...grid, lotLike(first, "LONG//DP1", rect(LONG.w, LONG.s, LONG.e, LONG.n))];
  // The first ten lots again, 2 m east: each holds its twin's label point.
  covered = grid.slice(0, 10);
  const shifted = covered.map((l, k) => {
    const ring = (l.geometry as { coordinates: Position[][] }).coordinates[0] as Position[];
    const moved = ring.map(([x, y]) => [(x as number) + 2 * M_LON, y as number] as Position);
    return lotLike(l, `H${k}//DP9`, { type: "Polygon", coordinates: [moved] });
  });
  const mid = (LONG.w + LONG.e) / 2;
  const overLong = lotLike(first, "HL//DP9", rect(mid - 0.001, LONG.s - 0.0005, mid + 0.001, LONG.n + 0.0005));
  low = await open("public/low.pack", lows, "low");
  high = await open("public/high.pack", [...shifted, overLong], "high");
}, 60_000);

async function ids(t: TileCoord, above: PagedPack[] = []): Promise<Set<string>> {
  const bytes = await pagedTile(low, t, above);
  const out = new Set<string>();
  if (!bytes) return out;
  const layer = new VectorTile(new PbfReader(bytes)).layers.parcels;
  for (let i = 0; layer && i < layer.length; i++) out.add(String(layer.feature(i).properties.lot_id));
  return out;
}

const inside = (t: TileCoord, [x, y]: [number, number]) => {
  const [w, s, e, n] = tileBBox(t);
  return x > w && x < e && y > s && y < n;
};

describe("a lots tile under a higher pack", () => {
  it("leaves out the lots whose label point a higher lot holds, and draws the others as alone", async () => {
    const c = covered[0] as Lot;
    for (const z of [14, 15, 16, 17]) {
      const t = tileOf(c.centre[0], c.centre[1], z);
      const alone = await ids(t);
      const under = await ids(t, [high]);
      for (const l of covered) if (inside(t, l.centre)) expect(alone.has(l.id), `${l.id} alone at z${z}`).toBe(true);
      for (const l of covered) expect(under.has(l.id), `${l.id} under at z${z}`).toBe(false);
      // The long strip's label point lies under the higher pack too, wherever the tile meets it.
      const gone = new Set([...covered.map((l) => l.id), "LONG//DP1"]);
      expect([...under].sort(), `z${z}`).toEqual([...alone].filter((id) => !gone.has(id)).sort());
      expect(under.size, `z${z}: other lots still drawn`).toBeGreaterThan(0);
    }
  });

  it("hides a lot reaching far from the tile whose label point a higher lot holds outside the tile", async () => {
    const t = tileOf(LONG.w + 20 * M_LON, (LONG.s + LONG.n) / 2, 16);
    expect(inside(t, [(LONG.w + LONG.e) / 2, LONG.s])).toBe(false);
    expect((await ids(t)).has("LONG//DP1")).toBe(true);
    expect((await ids(t, [high])).has("LONG//DP1")).toBe(false);
  });

  it("is byte for byte the tile alone where the higher pack has no lot near", async () => {
    const far = lows[lows.length - 2] as Lot;
    const t = tileOf(far.centre[0], far.centre[1], 18);
    const alone = await pagedTile(low, t);
    expect(alone).not.toBeNull();
    expect(Buffer.from((await pagedTile(low, t, [high])) as Uint8Array).equals(Buffer.from(alone as Uint8Array))).toBe(
      true,
    );
  });
});
