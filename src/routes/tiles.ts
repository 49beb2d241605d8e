// GET /tiles/{pack_id}.json (TileJSON) and GET /tiles/{pack_id}/{z}/{x}/{y}.mvt (vector tiles cut from the pack).
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AuthEnv } from "../request/context.ts";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth } from "../request/access.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPack } from "../request/built-packs.ts";
import { errors } from "../http/errors.ts";
import { edgeBytes, ifNoneMatch, keepAtEdge } from "../http/edge-cache.ts";
import { TILE_DRAWING } from "../tiles/drawing.ts";
import { integerText } from "../http/numbers.ts";
import { callerOrgId } from "../request/caller.ts";
import { NotFoundError } from "../errors.ts";
import { type FoundPack, findPack } from "../packs/open-pack.ts";
import { cutTile } from "../tiles/cut.ts";
import { MAX_ZOOM, validTile, type TileCoord } from "../tiles/math.ts";
import { versionParam } from "../tiles/tilejson.ts";
import { pagedTile } from "../tiles/paged.ts";
import { packsAbove } from "../tiles/above.ts";
import { TileJsonSchema } from "./schemas/tiles.ts";
import { tileJsonOf } from "./tilejson-of.ts";

// Hono's router cannot put a literal suffix after a parameter, so the suffix is matched and removed here.
const withSuffix = (suffix: RegExp) => (v: unknown) => (typeof v === "string" ? v.replace(suffix, "") : v);
const PackId = z.string().min(1).max(200).openapi({ description: "A pack id from GET /packs", example: "sydney-demo" });
// Plain decimal digits only: "1e1", "0x1", "1.0", "+1" and "01" are 422s, not tile indices.
const TileInt = (name: string, max: number) =>
  integerText(z.number().int().min(0).max(max)).openapi({
    type: "integer",
    minimum: 0,
    maximum: max,
    description: name,
  });

const MVT = "application/vnd.mapbox-vector-tile";
// Public packs are the same for every caller; a private pack's tile is cached by the browser only.
const PUBLIC_CACHE = "private, max-age=3600";
const STALE_CACHE = "private, max-age=60";

/** The pack the caller may read: a public one without the database, else their organisation's. */
async function packOf(c: Context<AuthEnv>, packId: string): Promise<FoundPack> {
  const { packs } = c.var.services;
  const found =
    (await findPack(await packs.public(), packId)) ??
    // An uploaded lots pack is v2 (docs/design.md section 10): drawn from its pages, like a public one, never cached at the edge.
    (await findPack(
      (await packs.visible(await callerOrgId(c))).filter((p) => p.own),
      packId,
    ));
  if (!found) throw new NotFoundError("Pack not found");
  return found;
}

function tileOutOfRange(t: TileCoord): never {
  const n = 2 ** t.z;
  const bad = t.x >= n ? { at: "x", v: t.x } : { at: "y", v: t.y };
  throw errors.validation([
    {
      loc: ["path", bad.at],
      msg: `Input should be less than ${n} at zoom ${t.z}`,
      type: "less_than",
      input: String(bad.v),
      ctx: { lt: n },
    },
  ]);
}

const tileJsonRoute = route({
  method: "get",
  path: "/tiles/{pack_id}.json",
  tags: ["map"],
  summary: "TileJSON 3.0.0 for a pack's vector tiles",
  description:
    "The tile URL template carries the pack version, so a cache never serves tiles of an older pack. One vector layer per pack layer, with its fields and the zoom it appears from.",
  middleware: [requireAuth, requireBuiltPack("pack_id", ".json"), rateLimit("tiles")],
  request: { params: z.object({ pack_id: z.preprocess(withSuffix(/\.json$/), PackId) }) },
  responses: {
    200: { description: "TileJSON", content: { "application/json": { schema: TileJsonSchema } } },
    ...pickErrors(404, 429),
  },
});

const tileRoute = route({
  method: "get",
  path: "/tiles/{pack_id}/{z}/{x}/{y}.mvt",
  tags: ["map"],
  summary: "A Mapbox Vector Tile of a pack",
  description:
    "One MVT layer per pack layer present at this zoom (parcels from z14 with `lot_id`, `area_m2`, `address`; zoning `zone`, `zone_name`; `fsr`, `height_m`, `min_lot_m2` on their layers; flood, bushfire, heritage; transport points; suburbs with `name`). 204 when the tile holds nothing; `ETag` with 304 on `If-None-Match`.",
  middleware: [requireAuth, requireBuiltPack("pack_id"), rateLimit("tiles")],
  request: {
    params: z.object({
      pack_id: PackId,
      z: TileInt("zoom", MAX_ZOOM),
      x: TileInt("column", 2 ** MAX_ZOOM - 1),
      y: z.preprocess(withSuffix(/\.mvt$/), TileInt("row", 2 ** MAX_ZOOM - 1)),
    }),
    query: z.object({
      v: z.string().max(100).optional().openapi({ description: "Pack version (cache key)" }),
      d: z.string().max(20).optional().openapi({ description: "How tiles are drawn (cache key), from the TileJSON" }),
    }),
  },
  responses: {
    200: { description: "The tile", content: { [MVT]: { schema: z.string().openapi({ format: "binary" }) } } },
    204: { description: "The tile holds no feature" },
    304: { description: "Not modified (matches If-None-Match)" },
    ...pickErrors(404, 429),
  },
});

// The router's path syntax cannot express "{y}.mvt": each route is documented with its OpenAPI path and
// served under a Hono pattern ("{y{…}}" becomes ":y{…}") that keeps the suffix in the parameter.
export const tileRoutes = createRouter();
// The document shows plain required integers; what is parsed (coerced, suffix removed) is not what is documented.
const docInt = (name: string, max: number) => z.number().int().min(0).max(max).openapi({ description: name });
const { middleware: _json, ...tileJsonDoc } = tileJsonRoute;
const { middleware: _tile, ...tileDoc } = tileRoute;
tileRoutes.openAPIRegistry.registerPath(tileJsonDoc);
tileRoutes.openAPIRegistry.registerPath({
  ...tileDoc,
  request: {
    ...tileDoc.request,
    params: z.object({
      pack_id: PackId,
      z: docInt("zoom", MAX_ZOOM),
      x: docInt("column, 0 to 2^z - 1", 2 ** MAX_ZOOM - 1),
      y: docInt("row, 0 to 2^z - 1", 2 ** MAX_ZOOM - 1),
    }),
  },
});
tileRoutes
  .openapi({ ...tileJsonRoute, path: "/tiles/{pack_id{[^/]+\\.json}}", hide: true }, async (c) => {
    const found = await packOf(c, c.req.valid("param").pack_id);
    c.header("Cache-Control", STALE_CACHE);
    return c.json(await tileJsonOf(found, new URL(c.req.url).origin, () => c.var.services.packs.public()), 200);
  })
  .openapi({ ...tileRoute, path: "/tiles/{pack_id}/{z}/{x}/{y{[^/]+\\.mvt}}", hide: true }, async (c) => {
    const { pack_id: packId, ...tile } = c.req.valid("param");
    if (!validTile(tile)) tileOutOfRange(tile);
    const found = await packOf(c, packId);
    const isPublic = !found.own;
    // Public packs that outrank this one hide its lots under theirs (precedence.ts): their checksums name the tile too.
    const above = await packsAbove(found.paged && isPublic ? await c.var.services.packs.public() : null, found.paged);
    // A v2 pack's content is named by its root's checksum, which lists every page's.
    const pack = found.whole ?? {
      id: packId,
      version: found.snapshot.root.meta.version,
      checksum: found.snapshot.header.rootCrc,
    };
    const coverPart = above.tag === "" ? "" : `-${above.tag}`;
    const etag = `"${pack.checksum.toString(16)}${coverPart}-${TILE_DRAWING}-${tile.z}-${tile.x}-${tile.y}"`;
    const { v, d } = c.req.valid("query");
    // Long-lived in the browser only when the URL names this pack version (and the packs above it) and this drawing.
    const current = v === versionParam(pack.version, above.tag) && d === TILE_DRAWING;
    const headers = { ETag: etag, "Cache-Control": current ? PUBLIC_CACHE : STALE_CACHE };
    if (ifNoneMatch(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
    const key = `https://tiles.internal/${pack.id}/${pack.version}/${pack.checksum}${coverPart}/${TILE_DRAWING}/${tile.z}/${tile.x}/${tile.y}`;
    const cached = isPublic ? await edgeBytes(key) : undefined;
    if (cached) return c.body(cached, 200, { ...headers, "Content-Type": MVT, "X-Cache": "HIT" });
    const bytes = found.whole ? cutTile(found.whole, tile) : await pagedTile(found.paged, tile, above.packs);
    if (!bytes) return c.body(null, 204, headers);
    // Empty tiles are a bare index query: only tiles with content are worth a cache entry.
    if (isPublic) keepAtEdge(key, bytes, (work) => c.executionCtx.waitUntil(work));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      "Content-Type": MVT,
      "X-Cache": isPublic ? "MISS" : "BYPASS",
    });
  });
