// Vector tiles through the real app: decoded with @mapbox/vector-tile and checked against the pack itself.
import { SELF, env } from "cloudflare:test";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { beforeAll, describe, expect, it } from "vitest";
import { decodePack } from "../../../src/packs/decode.ts";
import { featuresInBox } from "../../../src/packs/lookup.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { BUFFER, EXTENT, latToY, lonToX, tileBBox } from "../../../src/tiles/coords.ts";
import { demoPackBytes, putDemoPacks, squareSuburb, suburbPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";
import { createTeamOrg, withDb } from "../helpers/billing.ts";

let auth: Record<string, string>;
let demo: Pack;
const PARRAMATTA: [number, number] = [151.0036, -33.815];

function tileAt(z: number, lon: number, lat: number) {
  return { z, x: Math.floor(lonToX(lon) * 2 ** z), y: Math.floor(latToY(lat) * 2 ** z) };
}

async function getTile(path: string, headers: Record<string, string> = auth): Promise<Response> {
  return SELF.fetch(`https://api.test${path}`, { headers });
}

async function decode(res: Response): Promise<VectorTile> {
  return new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer())));
}

beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  resetPublicPacks();
  const bytes = demoPackBytes("sydney-demo.pack");
  demo = decodePack(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
});

describe("GET /tiles/{pack_id}.json", () => {
  it("is TileJSON 3.0.0 whose tile URL carries the pack version and whose layers are the pack's", async () => {
    const res = await getTile("/tiles/sydney-demo.json");
    expect(res.status).toBe(200);
    const tj = await res.json<{
      tilejson: string;
      tiles: string[];
      minzoom: number;
      maxzoom: number;
      bounds: number[];
      vector_layers: { id: string; fields: Record<string, string> }[];
      attribution: string;
    }>();
    expect(tj.tilejson).toBe("3.0.0");
    expect(tj.tiles).toEqual([`https://api.test/tiles/sydney-demo/{z}/{x}/{y}.mvt?v=${demo.version}`]);
    expect(tj.bounds).toEqual(demo.bbox);
    expect(tj.minzoom).toBeLessThan(tj.maxzoom);
    expect(tj.vector_layers.map((l) => l.id)).toEqual([...demo.layers.keys()]);
    expect(tj.vector_layers.find((l) => l.id === "parcels")?.fields).toMatchObject({
      lot_id: "String",
      area_m2: "Number",
    });
    expect(tj.attribution).toBe(demo.meta.attribution);
  });

  it("serves the ABS suburbs pack as the offline basemap's suburb layer", async () => {
    const tj = await (await getTile("/tiles/sydney-suburbs.json")).json<{ vector_layers: { id: string }[] }>();
    expect(tj.vector_layers.map((l) => l.id)).toContain("suburbs");
    const res = await getTile(
      `/tiles/sydney-suburbs/12/${tileAt(12, ...PARRAMATTA).x}/${tileAt(12, ...PARRAMATTA).y}.mvt`,
    );
    expect(res.status).toBe(200);
    const names = new Set<string>();
    const layer = (await decode(res)).layers.suburbs;
    for (let i = 0; i < (layer?.length ?? 0); i++) names.add(String(layer?.feature(i).properties.name));
    expect(names).toContain("Parramatta");
  });

  it("404s an unknown pack", async () => {
    const res = await getTile("/tiles/no-such-pack.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ detail: "Pack not found" });
  });

  it("401s without a token", async () => {
    expect((await SELF.fetch("https://api.test/tiles/sydney-demo.json")).status).toBe(401);
  });
});

describe("GET /tiles/{pack_id}/{z}/{x}/{y}.mvt", () => {
  it("has one layer per pack layer, with as many features as the index finds in the buffered box", async () => {
    const t = tileAt(15, ...PARRAMATTA);
    const res = await getTile(`/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt?v=${demo.version}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.mapbox-vector-tile");
    const tile = await decode(res);
    const [w, s, e, n] = tileBBox(t, BUFFER);
    const inner = tileBBox(t);
    for (const [name, layer] of demo.layers) {
      const candidates = featuresInBox(layer, w, s, e, n);
      const mvt = tile.layers[name];
      // Every point inside the tile must be drawn; no feature beyond what the index finds.
      const inside = candidates.filter((i) => {
        const [x, y] = [layer.coords[2 * i] as number, layer.coords[2 * i + 1] as number];
        return x > inner[0] && x < inner[2] && y > inner[1] && y < inner[3];
      });
      if (candidates.length === 0) {
        expect(mvt, name).toBeUndefined();
        continue;
      }
      expect(mvt?.length ?? 0, name).toBeLessThanOrEqual(candidates.length);
      if (layer.kind === "point") expect(mvt?.length ?? 0, name).toBeGreaterThanOrEqual(inside.length);
      expect(mvt?.extent).toBe(EXTENT);
    }
    const lots = tile.layers.parcels;
    expect(lots?.length).toBeGreaterThan(50);
    expect(lots?.length).toBe(featuresInBox(demo.layers.get("parcels")!, w, s, e, n).length);
  });

  it("gives each layer its attributes and keeps coordinates within the extent and buffer", async () => {
    const t = tileAt(15, ...PARRAMATTA);
    const tile = await decode(await getTile(`/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt`));
    const lots = tile.layers.parcels!;
    const parcels = demo.layers.get("parcels")!;
    for (let i = 0; i < lots.length; i++) {
      const f = lots.feature(i);
      expect(f.properties).toMatchObject({
        lot_id: parcels.props(Number(f.id)).lot_id,
        area_m2: parcels.props(Number(f.id)).area_m2,
      });
      expect(f.type).toBe(3);
      for (const ring of f.loadGeometry())
        for (const p of ring) {
          expect(p.x).toBeGreaterThanOrEqual(-BUFFER);
          expect(p.x).toBeLessThanOrEqual(EXTENT + BUFFER);
          expect(p.y).toBeGreaterThanOrEqual(-BUFFER);
          expect(p.y).toBeLessThanOrEqual(EXTENT + BUFFER);
        }
    }
    expect(typeof tile.layers.zoning?.feature(0).properties.zone).toBe("string");
    expect(typeof tile.layers.fsr?.feature(0).properties.fsr).toBe("number");
    expect(typeof tile.layers.height?.feature(0).properties.height_m).toBe("number");
    expect(tile.layers.transport?.feature(0).type).toBe(1);
  });

  it("draws a lot at z15 where its polygon is", async () => {
    const t = tileAt(15, ...PARRAMATTA);
    const tile = await decode(await getTile(`/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt`));
    const lots = tile.layers.parcels!;
    const parcels = demo.layers.get("parcels")!;
    let checked = 0;
    for (let i = 0; i < lots.length; i++) {
      const f = lots.feature(i);
      const geo = f.toGeoJSON(t.x, t.y, t.z);
      const idx = Number(f.id);
      const v0 = parcels.ringOffsets[parcels.polyOffsets[parcels.featureOffsets[idx]!]!]!;
      const lon = parcels.coords[2 * v0]!;
      const lat = parcels.coords[2 * v0 + 1]!;
      const [w, s, e, n] = tileBBox(t);
      if (lon <= w || lon >= e || lat <= s || lat >= n) continue;
      // The pack's first vertex must be within a tile unit (about 1.2 m at z15) of a drawn vertex.
      const ring = (geo.geometry as { coordinates: number[][][] }).coordinates[0]!;
      const nearest = Math.min(...ring.map(([x, y]) => Math.hypot(x! - lon, y! - lat)));
      expect(nearest).toBeLessThan(0.00002);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("answers 304 to If-None-Match with the tile's ETag, and sets Cache-Control", async () => {
    const t = tileAt(15, ...PARRAMATTA);
    const path = `/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt?v=${demo.version}`;
    const first = await getTile(path);
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("Cache-Control")).toBe("private, max-age=86400");
    const again = await getTile(path, { ...auth, "If-None-Match": etag! });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    const stale = await getTile(`/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt?v=0.0.1`);
    expect(stale.headers.get("Cache-Control")).toBe("private, max-age=60");
  });

  it("answers 204 for a tile that holds nothing", async () => {
    expect((await getTile("/tiles/sydney-demo/15/0/0.mvt")).status).toBe(204);
    // Below the TileJSON minzoom no layer is drawn.
    expect((await getTile("/tiles/sydney-demo/3/0/0.mvt")).status).toBe(204);
  });

  it.each([
    ["not integers", "15/a/1"],
    ["negative", "15/-1/3"],
    ["x out of range", "2/4/0"],
    ["y out of range", "2/0/4"],
    ["zoom too deep", "23/0/0"],
    ["fractional", "15/1.5/3"],
  ])("answers 422 for z/x/y %s", async (_what, zxy) => {
    const res = await getTile(`/tiles/sydney-demo/${zxy}.mvt`);
    expect(res.status).toBe(422);
    expect((await res.json<{ detail: { msg: string }[] }>()).detail[0]?.msg).toMatch(/z\/x\/y/);
  });

  it("serves a public tile from the edge cache on the second request", async () => {
    const t = tileAt(14, ...PARRAMATTA);
    const path = `/tiles/sydney-demo/${t.z}/${t.x}/${t.y}.mvt?v=${demo.version}`;
    const first = await getTile(path);
    expect(first.status).toBe(200);
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    const second = await getTile(path);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(firstBytes);
  });

  it("404s another organisation's private pack, serves it to its own, and never edge-caches it", async () => {
    const [mine, theirs] = await withDb(async (db) => [
      await createTeamOrg(db, { idpUsers: false }),
      await createTeamOrg(db, { idpUsers: false }),
    ]);
    await env.PACKS.put(
      `orgs/${mine!.orgId}/estate.pack`,
      suburbPack("estate-tiles", "1", [squareSuburb("Hiddenbrook", 150.2, -34.2)]),
    );
    const t = tileAt(14, 150.205, -34.195);
    const path = `/tiles/estate-tiles/${t.z}/${t.x}/${t.y}.mvt`;
    const own = await getTile(path, bearer(mine!.users.member.token));
    expect(own.status).toBe(200);
    expect((await decode(own)).layers.suburbs?.feature(0).properties.name).toBe("Hiddenbrook");
    expect((await getTile(path, bearer(mine!.users.member.token))).headers.get("X-Cache")).toBeNull();
    const other = await getTile(path, bearer(theirs!.users.owner.token));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ detail: "Pack not found" });
    expect((await getTile("/tiles/estate-tiles.json", bearer(theirs!.users.owner.token))).status).toBe(404);
  });
});
