// The world's lots tile under an imported council (docs/design.md section 10): the 50,000-lot test world and the
// imported Hunters Hill (synthetic geometry over the same suburb) both published; a world lot whose label point lies
// in an imported lot is not drawn, the imported lots are, and the world's other lots still are. Which world lots lie
// under the import is taken from the site search (its own rule, by label point), not from the tiles' code.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { projector, type TileCoord, tileBBox, tileOf } from "../../../src/tiles/math.ts";
import imported from "../../fixtures/nsw/imported-hunters-hill.pack.b64?raw";
import { demoPackBytes, fromBase64, putPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Result = { pack_id: string; lot_id: string; center: [number, number] };
type Answer = { count: number; results: Result[]; next_cursor: string | null };

const IMPORTED = "nsw-hunters-hill";
const WORLD = "greater-sydney";
const IMPORTED_KEY = `public/${IMPORTED}.pack`;

let auth: Record<string, string>;
let bbox: [number, number, number, number];
// From the search: the world's lots under imported ones, the world's others in the area, and the imported lots.
let hidden: Result[];
let kept: Result[];
let importedLots: Result[];

const withImport = async (on: boolean) => {
  if (on) await putPack(IMPORTED_KEY, fromBase64(imported));
  else await env.PACKS.delete(IMPORTED_KEY);
  resetPublicPacks();
};

async function search(): Promise<Result[]> {
  const res = await SELF.fetch("https://api.test/sites/search", {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ area: { bbox }, limit: 500 }),
  });
  expect(res.status).toBe(200);
  const answer = await res.json<Answer>();
  expect(answer.next_cursor).toBeNull();
  return answer.results;
}

/** The lot ids a pack's tile draws (none for a 204), and its ETag. */
async function drawn(pack: string, t: TileCoord): Promise<{ ids: Set<string>; etag: string | null }> {
  const res = await SELF.fetch(`https://api.test/tiles/${pack}/${t.z}/${t.x}/${t.y}.mvt`, { headers: auth });
  expect([200, 204]).toContain(res.status);
  const etag = res.headers.get("ETag");
  if (res.status === 204) return { ids: new Set(), etag };
  const layer = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers.parcels;
  const ids = new Set<string>();
  for (let i = 0; layer && i < layer.length; i++) ids.add(String(layer.feature(i).properties.lot_id));
  return { ids, etag };
}

/** Each feature's rings of the world's `blocks` layer in tile `t`, in tile units (none for a 204). */
async function blocksAt(t: TileCoord): Promise<[number, number][][][]> {
  const res = await SELF.fetch(`https://api.test/tiles/${WORLD}/${t.z}/${t.x}/${t.y}.mvt`, { headers: auth });
  expect([200, 204]).toContain(res.status);
  if (res.status === 204) return [];
  const layer = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers.blocks;
  const features: [number, number][][][] = [];
  for (let i = 0; layer && i < layer.length; i++)
    features.push(
      layer
        .feature(i)
        .loadGeometry()
        .map((ring) => ring.map((p) => [p.x, p.y] as [number, number])),
    );
  return features;
}

/** A point's tile units in tile `t`. */
function unitsOf(t: TileCoord, [x, y]: [number, number]): [number, number] {
  const out = new Float64Array(2);
  projector(t)(x, y, out, 0);
  return [out[0] as number, out[1] as number];
}

/** Even-odd point in a feature's rings (the cells' polygons with their holes, the blocks' quads). */
function inFeature(rings: readonly (readonly [number, number][])[], [x, y]: [number, number]): boolean {
  let inside = false;
  for (const ring of rings)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as [number, number];
      const [xj, yj] = ring[j] as [number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  return inside;
}

const inTile = (t: TileCoord, [x, y]: [number, number]) => {
  const [w, s, e, n] = tileBBox(t);
  return x >= w && x < e && y > s && y <= n;
};

/** The tiles at zoom z holding the label point of a lot of `lots`. */
function tilesOf(lots: readonly Result[], z: number): TileCoord[] {
  const tiles = new Map<string, TileCoord>();
  for (const r of lots) {
    const t = tileOf(r.center[0], r.center[1], z);
    tiles.set(`${t.x}/${t.y}`, t);
  }
  return [...tiles.values()];
}

beforeAll(async () => {
  auth = bearer(await mintToken());
  for (const name of ["sydney-suburbs.pack", "sydney-transport.pack"])
    await putPack(`public/${name}`, demoPackBytes(name));
  const world = await fetch(inject("testWorldUrl"));
  expect(world.status).toBe(200);
  await putPack(`public/${WORLD}.pack`, new Uint8Array(await world.arrayBuffer()));
  await withImport(true);
  const packs = await (await SELF.fetch("https://api.test/packs", { headers: auth })).json<
    { id: string; bbox: [number, number, number, number] }[]
  >();
  const found = packs.find((p) => p.id === IMPORTED)?.bbox;
  if (!found) throw new Error("the imported pack is not listed");
  bbox = found;
  const both = await search();
  await withImport(false);
  const worldOnly = await search();
  await withImport(true);
  const keptIds = new Set(both.filter((r) => r.pack_id === WORLD).map((r) => r.lot_id));
  hidden = worldOnly.filter((r) => !keptIds.has(r.lot_id));
  kept = worldOnly.filter((r) => keptIds.has(r.lot_id));
  importedLots = both.filter((r) => r.pack_id === IMPORTED);
}, 240_000);

describe("the world's lots tile under an imported council", () => {
  it("the area has world lots under imported ones and world lots beside them", () => {
    expect(hidden.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    expect(importedLots.length).toBe(111);
  });

  for (const z of [15, 16]) {
    it(`at z${z}, draws no world lot under an imported lot, draws the imported lots and the world's others`, async () => {
      const tiles = tilesOf([...hidden, ...kept, ...importedLots], z);
      let hiddenSeen = 0;
      let keptSeen = 0;
      for (const t of tiles) {
        const world = await drawn(WORLD, t);
        for (const r of hidden) expect(world.ids.has(r.lot_id), `${r.lot_id} in ${z}/${t.x}/${t.y}`).toBe(false);
        for (const r of kept.filter((k) => inTile(t, k.center))) {
          expect(world.ids.has(r.lot_id), `${r.lot_id} in ${z}/${t.x}/${t.y}`).toBe(true);
          keptSeen++;
        }
        const own = await drawn(IMPORTED, t);
        for (const r of importedLots.filter((k) => inTile(t, k.center))) expect(own.ids.has(r.lot_id)).toBe(true);
        // Without the import the same tile draws the lots it hid: the tile, not the search, left them out.
        await withImport(false);
        const alone = await drawn(WORLD, t);
        await withImport(true);
        for (const r of hidden.filter((k) => inTile(t, k.center))) {
          expect(alone.ids.has(r.lot_id), `${r.lot_id} alone in ${z}/${t.x}/${t.y}`).toBe(true);
          hiddenSeen++;
        }
        if (hidden.some((k) => inTile(t, k.center))) expect(alone.etag).not.toBe(world.etag);
      }
      expect(hiddenSeen).toBe(hidden.length);
      expect(keptSeen).toBe(kept.length);
    });
  }

  for (const z of [10, 12]) {
    it(`at z${z}, the world's street blocks are not drawn over the imported lots, and are without the import`, async () => {
      let coveredAlone = 0;
      for (const t of tilesOf(importedLots, z)) {
        const here = importedLots.filter((k) => inTile(t, k.center));
        const blocks = await blocksAt(t);
        await withImport(false);
        const alone = await blocksAt(t);
        await withImport(true);
        // The world around the import is still drawn in the same tile.
        expect(blocks.length).toBeGreaterThan(0);
        for (const r of here) {
          const p = unitsOf(t, r.center);
          expect(
            blocks.some((f) => inFeature(f, p)),
            `${r.lot_id} under a world block at z${z}`,
          ).toBe(false);
          if (alone.some((f) => inFeature(f, p))) coveredAlone++;
        }
      }
      // Without the import the world's blocks lie under its lots: the tile, not the data, left them out.
      expect(coveredAlone).toBeGreaterThan(0);
    });
  }

  it("the world's TileJSON names the import in its tile URL, so a browser's cached tiles give way to it", async () => {
    const url = async () => {
      const res = await SELF.fetch(`https://api.test/tiles/${WORLD}.json`, { headers: auth });
      expect(res.status).toBe(200);
      return (await res.json<{ tiles: string[]; version: string }>()).tiles[0] ?? "";
    };
    const withIt = await url();
    await withImport(false);
    const without = await url();
    await withImport(true);
    expect(withIt).not.toBe(without);
    expect(new URL(without).searchParams.get("v")).not.toContain("~");
    expect(new URL(withIt).searchParams.get("v")).toMatch(/~[0-9a-f]+$/);
  });

  it("a point in the import's coverage, in a world lot under it, never answers that lot: the imported lot, or none on its road reserve", async () => {
    type Facts = { pack_id: string; lot_id: string | null; geometry: { type: string; coordinates: number[][][] } };
    const at = async ([x, y]: [number, number]) => {
      const res = await SELF.fetch(`https://api.test/parcels?lng=${x}&lat=${y}`, { headers: auth });
      expect([200, 404]).toContain(res.status);
      return res.status === 200 ? await res.json<Facts>() : null;
    };
    let onReserve = 0;
    for (const lot of hidden.slice(0, 8)) {
      // Its outline, read with the import away.
      await withImport(false);
      const alone = await at(lot.center);
      await withImport(true);
      expect(alone?.lot_id).toBe(lot.lot_id);
      const ring = (alone as Facts).geometry.coordinates[0] as [number, number][];
      const xs = ring.map((p) => p[0] as number);
      const ys = ring.map((p) => p[1] as number);
      const [w, e, s, n] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      for (let a = 1; a < 6; a++)
        for (let b = 1; b < 6; b++) {
          const p: [number, number] = [w + ((e - w) * a) / 6, s + ((n - s) * b) / 6];
          const covered = p[0] >= bbox[0] && p[0] <= bbox[2] && p[1] >= bbox[1] && p[1] <= bbox[3];
          if (!inFeature([ring], p) || !covered) continue;
          const hit = await at(p);
          expect(hit?.lot_id ?? null, `${lot.lot_id} at ${p}`).not.toBe(lot.lot_id);
          if (hit === null) onReserve++;
          else expect(hit.pack_id).toBe(IMPORTED);
        }
    }
    // Some points fell between imported lots: there the world's lot used to answer.
    expect(onReserve).toBeGreaterThan(0);
  });
});
