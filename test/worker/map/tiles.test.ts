// Vector tiles through the real app: TileJSON, MVT decoded with @mapbox/vector-tile, caching headers and error rows.
import { SELF, env } from "cloudflare:test";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { beforeAll, describe, expect, it } from "vitest";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { featuresInBox } from "../../../src/packs/lookup.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { BUFFER, EXTENT, tileBBox, tileOf } from "../../../src/tiles/math.ts";
import { TILE_DRAWING } from "../../../src/tiles/drawing.ts";
import { demoPackBytes, putDemoPacks, squareSuburb, suburbPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";
import { createTeamOrg, withDb } from "../helpers/billing.ts";

let auth: Record<string, string>;
let demo: Pack;
const get = (path: string, headers: Record<string, string> = auth) =>
  SELF.fetch(`https://api.test${path}`, { headers });

async function decoded(res: Response): Promise<VectorTile> {
  expect(res.headers.get("Content-Type")).toBe("application/vnd.mapbox-vector-tile");
  return new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer())));
}

beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  resetPublicPacks();
  demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
});

// A lot of the demo pack: its first vertex, the tile holding it at z15, and its lot id.
function aLot(i = 0) {
  const parcels = demo.layers.get("parcels");
  if (!parcels) throw new Error("demo pack has no parcels");
  const v = parcels.ringOffsets[parcels.polyOffsets[parcels.featureOffsets[i] as number] as number] as number;
  const lon = parcels.coords[2 * v] as number;
  const lat = parcels.coords[2 * v + 1] as number;
  return { lon, lat, lotId: parcels.props(i).lot_id as string, parcels };
}

describe("GET /tiles/{pack_id}.json", () => {
  it("is TileJSON 3.0.0 whose tile URL carries the pack version, with bounds and every layer's fields", async () => {
    const res = await get("/tiles/sydney-demo.json");
    expect(res.status).toBe(200);
    const tj = await res.json<{
      tilejson: string;
      tiles: string[];
      bounds: number[];
      minzoom: number;
      maxzoom: number;
      attribution: string;
      vector_layers: { id: string; fields: Record<string, string>; minzoom: number }[];
    }>();
    expect(tj.tilejson).toBe("3.0.0");
    expect(tj.tiles).toEqual([
      `https://api.test/tiles/sydney-demo/{z}/{x}/{y}.mvt?v=${demo.version}&d=${TILE_DRAWING}`,
    ]);
    expect(tj.bounds).toEqual(demo.bbox);
    expect(tj.attribution).toBe(demo.meta.attribution);
    expect(tj.vector_layers.map((l) => l.id).sort()).toEqual([...demo.layers.keys()].sort());
    const parcels = tj.vector_layers.find((l) => l.id === "parcels");
    expect(Object.keys(parcels?.fields ?? {})).toEqual(expect.arrayContaining(["lot_id", "area_m2"]));
    expect(tj.maxzoom).toBeGreaterThanOrEqual(parcels?.minzoom ?? 99);
  });

  it("is given inline by GET /packs for every public pack, as this route answers it", async () => {
    const packs = await (await get("/packs")).json<{ id: string; private: boolean; tilejson?: unknown }[]>();
    const listed = packs.filter((p) => !p.private);
    expect(listed.map((p) => p.id)).toContain("sydney-demo");
    for (const p of listed) expect(p.tilejson, p.id).toEqual(await (await get(`/tiles/${p.id}.json`)).json());
  });

  it("an unknown pack is 404 Pack not found", async () => {
    const res = await get("/tiles/no-such-pack.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Pack not found" });
  });

  it("needs a bearer token", async () => {
    const res = await get("/tiles/sydney-demo.json", {});
    expect(res.status).toBe(401);
  });
});

describe("GET /tiles/{pack_id}/{z}/{x}/{y}.mvt", () => {
  it("a z15 tile has one layer per pack layer present, as many parcels as a flatbush query of the buffered box", async () => {
    const { lon, lat, parcels } = aLot();
    const t = tileOf(lon, lat, 15);
    const res = await get(`/tiles/sydney-demo/15/${t.x}/${t.y}.mvt?v=${demo.version}&d=${TILE_DRAWING}`);
    expect(res.status).toBe(200);
    const vt = await decoded(res);
    expect(Object.keys(vt.layers)).toContain("parcels");
    for (const name of Object.keys(vt.layers)) expect(demo.layers.has(name)).toBe(true);
    const [w, s, e, n] = tileBBox(t, BUFFER);
    const expected = featuresInBox(parcels, w, s, e, n).length;
    // Every lot whose box meets the buffered tile is drawn unless it clips away to nothing on the grid.
    expect(vt.layers.parcels?.length).toBeLessThanOrEqual(expected);
    expect(vt.layers.parcels?.length).toBeGreaterThan(expected * 0.9);
  });

  it("features carry their attributes and coordinates stay within the extent plus buffer", async () => {
    const { lon, lat } = aLot();
    const t = tileOf(lon, lat, 15);
    const vt = await decoded(await get(`/tiles/sydney-demo/15/${t.x}/${t.y}.mvt`));
    const layer = vt.layers.parcels;
    if (!layer) throw new Error("no parcels layer");
    expect(layer.extent).toBe(EXTENT);
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      expect(typeof f.properties.lot_id).toBe("string");
      expect(f.properties.area_m2).toBeGreaterThan(0);
      for (const ring of f.loadGeometry())
        for (const p of ring) {
          expect(p.x).toBeGreaterThanOrEqual(-BUFFER);
          expect(p.x).toBeLessThanOrEqual(EXTENT + BUFFER);
          expect(p.y).toBeGreaterThanOrEqual(-BUFFER);
          expect(p.y).toBeLessThanOrEqual(EXTENT + BUFFER);
        }
    }
    const transport = vt.layers.transport;
    if (transport) expect(transport.feature(0).type).toBe(1);
  });

  it("a lot drawn at z15 lands where its polygon is", async () => {
    const { lon, lat, lotId } = aLot(5);
    const t = tileOf(lon, lat, 15);
    const vt = await decoded(await get(`/tiles/sydney-demo/15/${t.x}/${t.y}.mvt`));
    const layer = vt.layers.parcels;
    if (!layer) throw new Error("no parcels layer");
    const features = Array.from({ length: layer.length }, (_, i) => layer.feature(i));
    const lot = features.find((f) => f.properties.lot_id === lotId);
    if (!lot) throw new Error(`lot ${lotId} not in its tile`);
    const gj = lot.toGeoJSON(t.x, t.y, 15);
    const coords = (gj.geometry.type === "Polygon" ? gj.geometry.coordinates : []).flat() as number[][];
    const nearest = Math.min(...coords.map(([x, y]) => Math.hypot((x as number) - lon, (y as number) - lat)));
    // One tile unit at z15 is about 0.3 m; the lot's first vertex is drawn within a metre.
    expect(nearest).toBeLessThan(1e-5);
  });

  it("answers 304 to its own ETag and 204 for an empty tile", async () => {
    const { lon, lat } = aLot();
    const t = tileOf(lon, lat, 15);
    const first = await get(`/tiles/sydney-demo/15/${t.x}/${t.y}.mvt`);
    const etag = first.headers.get("ETag");
    expect(etag).toBeTruthy();
    expect(first.headers.get("Cache-Control")).toContain("max-age");
    const again = await get(`/tiles/sydney-demo/15/${t.x}/${t.y}.mvt`, { ...auth, "If-None-Match": etag ?? "" });
    expect(again.status).toBe(304);
    // A tile in the Pacific Ocean at z15.
    const empty = await get("/tiles/sydney-demo/15/0/0.mvt");
    expect(empty.status).toBe(204);
  });

  it("is kept an hour only under a URL naming this pack version and this drawing; its ETag names the drawing", async () => {
    const { lon, lat } = aLot(5);
    const t = tileOf(lon, lat, 15);
    const path = `/tiles/sydney-demo/15/${t.x}/${t.y}.mvt?v=${demo.version}`;
    const current = await get(`${path}&d=${TILE_DRAWING}`);
    expect(current.headers.get("Cache-Control")).toBe("private, max-age=3600");
    expect(current.headers.get("ETag")).toContain(`-${TILE_DRAWING}-15-`);
    // A URL from a TileJSON read before the drawing changed: served, but not kept long.
    const older = await get(`${path}&d=d1`);
    expect(older.status).toBe(200);
    expect(older.headers.get("Cache-Control")).toBe("private, max-age=60");
  });

  it("a second request for a public tile is served from the edge cache", async () => {
    const { lon, lat } = aLot(20);
    const t = tileOf(lon, lat, 16);
    const first = await get(`/tiles/sydney-demo/16/${t.x}/${t.y}.mvt`);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    await new Promise((r) => setTimeout(r, 50));
    const second = await get(`/tiles/sydney-demo/16/${t.x}/${t.y}.mvt`);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(firstBytes);
  });

  it("the suburbs layer of the ABS pack draws at low zoom with names", async () => {
    const t = tileOf(151.18, -33.897, 10);
    const vt = await decoded(await get(`/tiles/sydney-suburbs/10/${t.x}/${t.y}.mvt`));
    const layer = vt.layers.suburbs;
    if (!layer) throw new Error("no suburbs layer");
    const names = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.name);
    expect(names).toContain("Newtown");
  });

  it("the transport pack draws its lines as LineStrings and its stations as points, and TileJSON lists both", async () => {
    const tj = await (await get("/tiles/sydney-transport.json")).json<{ vector_layers: { id: string }[] }>();
    expect(tj.vector_layers.map((l) => l.id)).toEqual(["stations", "lines"]);
    const t = tileOf(151.2058, -33.8839, 14);
    const vt = await decoded(await get(`/tiles/sydney-transport/14/${t.x}/${t.y}.mvt`));
    const lines = vt.layers.lines;
    const stations = vt.layers.stations;
    if (!lines || !stations) throw new Error("no lines or stations layer");
    const drawn = Array.from({ length: lines.length }, (_, i) => lines.feature(i));
    expect(drawn.every((f) => f.type === 2)).toBe(true);
    expect(drawn.map((f) => f.properties.line)).toEqual(expect.arrayContaining(["T1", "M1", "L1", "L2"]));
    const names = Array.from({ length: stations.length }, (_, i) => stations.feature(i).properties.name);
    expect(names).toContain("Central");
  });

  it.each([
    ["/tiles/sydney-demo/15/abc/1.mvt", "x"],
    ["/tiles/sydney-demo/1.5/0/0.mvt", "z"],
    ["/tiles/sydney-demo/23/0/0.mvt", "z"],
    ["/tiles/sydney-demo/2/4/0.mvt", "x"],
    ["/tiles/sydney-demo/2/0/-1.mvt", "y"],
  ])("%s is 422 naming %s", async (path, field) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { loc: string[] }[] }>();
    expect(body.detail[0]?.loc).toEqual(["path", field]);
  });

  it("a private pack is served to its organisation and is 404 to another", async () => {
    const [mine, other] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
    await env.PACKS.put(
      `orgs/${mine?.orgId}/estate.pack`,
      await suburbPack("estate-tiles", "1", [squareSuburb("Tilevale", 150.5, -34.5)]),
    );
    const t = tileOf(150.505, -34.495, 12);
    const path = `/tiles/estate-tiles/12/${t.x}/${t.y}.mvt`;
    const own = await get(path, bearer(mine?.users.member.token ?? ""));
    expect(own.status).toBe(200);
    expect(own.headers.get("X-Cache")).toBe("BYPASS");
    const theirs = await get(path, bearer(other?.users.owner.token ?? ""));
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ detail: "Pack not found" });
  });
});
