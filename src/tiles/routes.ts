// GET /tiles/{pack_id}.json and GET /tiles/{pack_id}/{z}/{x}/{y}.mvt: a pack's layers as vector tiles.
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requireAuth } from "../http/access.ts";
import { packsForCaller } from "../http/caller.ts";
import type { AuthEnv } from "../http/context.ts";
import { edgeCachedResponse } from "../http/edge-cache.ts";
import { pickErrors } from "../http/openapi.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../http/router.ts";
import { NotFoundError } from "../errors.ts";
import { errors } from "../http/errors.ts";
import type { Pack } from "../packs/types.ts";
import { MAX_Z, parseTile } from "./coords.ts";
import { renderTile, tileEtag, tileJson } from "./tile.ts";

const MVT = "application/vnd.mapbox-vector-tile";
// A tile named with the current pack version never changes; one named with another version may.
const CURRENT_CACHE = "private, max-age=86400";
const STALE_CACHE = "private, max-age=60";
const EDGE_TTL_S = 86400;

const PackParam = z.object({ pack_id: z.string().openapi({ example: "sydney-demo" }) });
const TileParams = PackParam.extend({
  z: z.string().openapi({ description: `Zoom, 0 to ${MAX_Z}`, example: "15" }),
  x: z.string().openapi({ example: "30132" }),
  y: z.string().openapi({ example: "19710" }),
});

const tileJsonRoute = route({
  method: "get",
  path: "/tiles/{pack_id}.json",
  tags: ["maps"],
  summary: "TileJSON 3.0.0 for a pack: tile URL template (carrying the pack version), zooms, bounds, layers",
  middleware: [requireAuth, rateLimit("tiles")],
  request: { params: PackParam },
  responses: {
    200: { description: "TileJSON", content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
    ...pickErrors(404, 429),
  },
});

const tileRoute = route({
  method: "get",
  path: "/tiles/{pack_id}/{z}/{x}/{y}.mvt",
  tags: ["maps"],
  summary: "A Mapbox Vector Tile of a pack: one layer per pack layer, simplified per zoom, clipped with a buffer",
  middleware: [requireAuth, rateLimit("tiles")],
  request: {
    params: TileParams,
    query: z.object({ v: z.string().optional().openapi({ description: "Pack version (from the TileJSON)" }) }),
  },
  responses: {
    200: {
      description: "The tile (MVT 2.1, extent 4096); `ETag` and `Cache-Control` set",
      content: { [MVT]: { schema: z.string().openapi({ format: "binary" }) } },
    },
    204: { description: "The tile holds nothing" },
    304: { description: "Not modified (`If-None-Match` matched the tile's ETag)" },
    ...pickErrors(404, 422, 429),
  },
});

async function findPack(c: Context<AuthEnv>, packId: string): Promise<{ pack: Pack; isPublic: boolean }> {
  const pack = (await packsForCaller(c)).find((p) => p.id === packId);
  if (!pack) throw new NotFoundError("Pack not found");
  const isPublic = (await c.var.services.packs.public()).includes(pack);
  return { pack, isPublic };
}

function stripSuffix(s: string, suffix: string): string {
  return s.endsWith(suffix) ? s.slice(0, -suffix.length) : s;
}

export const tileRoutes = createRouter();
// Hono cannot match a parameter followed by a suffix in one segment ("{y}.mvt"), so each path is served
// through a whole-segment pattern and documented through the registry with route() as usual.
tileRoutes.openAPIRegistry.registerPath(tileJsonRoute);
tileRoutes.openAPIRegistry.registerPath(tileRoute);

tileRoutes.get("/tiles/:file{[^/]+\\.json}", requireAuth, rateLimit("tiles"), async (c) => {
  const { pack } = await findPack(c, stripSuffix(c.req.param("file"), ".json"));
  const base = new URL(c.req.url);
  const template = `${base.origin}/tiles/${encodeURIComponent(pack.id)}/{z}/{x}/{y}.mvt?v=${encodeURIComponent(pack.version)}`;
  c.header("Cache-Control", "private, max-age=60");
  return c.json(tileJson(pack, template), 200);
});

tileRoutes.get("/tiles/:pack_id/:z/:x/:file{[^/]+\\.mvt}", requireAuth, rateLimit("tiles"), async (c) => {
  const t = parseTile(c.req.param("z"), c.req.param("x"), stripSuffix(c.req.param("file"), ".mvt"));
  if (!t) {
    const input = `${c.req.param("z")}/${c.req.param("x")}/${stripSuffix(c.req.param("file"), ".mvt")}`;
    const msg = `Tile z/x/y must be integers with 0 <= z <= ${MAX_Z} and 0 <= x, y < 2^z`;
    throw errors.validation([{ loc: ["path", "z/x/y"], msg, type: "tile_coordinates", input }]);
  }
  const { pack, isPublic } = await findPack(c, c.req.param("pack_id"));
  const etag = tileEtag(pack, t);
  const cacheControl = c.req.query("v") === pack.version ? CURRENT_CACHE : STALE_CACHE;
  const headers = { ETag: etag, "Cache-Control": cacheControl };
  if (
    c.req
      .header("If-None-Match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return c.body(null, 304, headers);
  const produce = (): Response => {
    const bytes = renderTile(pack, t);
    if (!bytes) return new Response(null, { status: 204, headers });
    return new Response(bytes, { status: 200, headers: { ...headers, "Content-Type": MVT } });
  };
  // Public tiles are the same for every caller who passed the token check; a private pack's never leave the Worker.
  const url = new URL(c.req.url);
  const key = `${url.origin}/tiles/${pack.id}@${pack.version}/${t.z}/${t.x}/${t.y}.mvt`;
  const res = isPublic ? await edgeCachedResponse(c, key, EDGE_TTL_S, cacheControl, produce) : produce();
  return res;
});
