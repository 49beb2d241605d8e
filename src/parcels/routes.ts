// GET /parcels (a parcel's facts, free) and POST /parcels/score (one site, charged like a batch row).
import { z } from "@hono/zod-openapi";
import { requireAuth, requireOrg } from "../http/access.ts";
import { packsForCaller } from "../http/caller.ts";
import { errors } from "../http/errors.ts";
import { pickErrors } from "../http/openapi.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../http/router.ts";
import { snakeKeys } from "../batch/payload.ts";
import { parcelFacts } from "./facts.ts";
import { type SiteQuery, locateSite } from "./locate.ts";
import { scoreOneSite } from "./score.ts";

const Share = z.object({ value: z.number(), share: z.number(), label: z.string().nullable() });
const ParcelSchema = z
  .object({
    pack_id: z.string(),
    lot_id: z.string().nullable(),
    address: z.string().nullable(),
    geometry: z.object({ type: z.enum(["Polygon", "MultiPolygon"]), coordinates: z.array(z.unknown()) }),
    area_m2: z.number(),
    centroid: z.array(z.number()).length(2),
    zones: z.array(z.object({ code: z.string(), name: z.string().nullable(), share: z.number() })),
    fsr: z.array(Share),
    height_m: z.array(Share),
    min_lot_size_m2: z.array(Share),
    overlays: z.array(z.object({ kind: z.string(), share: z.number(), names: z.array(z.string()).optional() })),
    nearest_station: z.object({ name: z.string(), mode: z.string(), distance_m: z.number() }).nullable(),
    demo_data: z.boolean(),
  })
  .openapi("ParcelFacts");

const lng = z.coerce.number().min(-180).max(180);
const lat = z.coerce.number().min(-90).max(90);
const lotId = z.string().trim().min(1).max(100);

const ParcelQuery = z.object({
  lng: lng.optional().openapi({ example: 151.0036 }),
  lat: lat.optional().openapi({ example: -33.815 }),
  lot_id: lotId.optional().openapi({ example: "6//DP1813990" }),
});

const ScoreBody = z
  .object({ lng: lng.optional(), lat: lat.optional(), lot_id: lotId.optional() })
  .openapi({ example: { lng: 151.0036, lat: -33.815 } });

function siteOf(input: { lng?: number; lat?: number; lot_id?: string }, where: "query" | "body"): SiteQuery {
  const point = input.lng !== undefined || input.lat !== undefined;
  const lot = input.lot_id !== undefined;
  if (lot && !point) return { lot_id: input.lot_id as string };
  if (!lot && input.lng !== undefined && input.lat !== undefined) return { lng: input.lng, lat: input.lat };
  const msg = lot
    ? "Give either lng and lat, or lot_id, not both"
    : point
      ? "Give both lng and lat"
      : "Give lng and lat, or lot_id";
  throw errors.validation([{ loc: [where], msg, type: "site", input }]);
}

export const parcelRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/parcels",
      tags: ["maps"],
      summary: "A parcel's facts by point or lot id (free): zones, controls, overlays, nearest station",
      middleware: [requireAuth, rateLimit("parcels")],
      request: { query: ParcelQuery },
      responses: {
        200: { description: "The parcel's facts", content: { "application/json": { schema: ParcelSchema } } },
        ...pickErrors(404, 429),
      },
    }),
    async (c) => {
      const packs = await packsForCaller(c);
      const parcel = locateSite(packs, siteOf(c.req.valid("query"), "query"));
      return c.json(parcelFacts(packs, parcel), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      path: "/parcels/score",
      tags: ["maps"],
      summary: "Score one site, charged 0.1 credit like a batch row",
      description:
        "Body `{lng, lat}` or `{lot_id}`. Charged 0.1 credit in one `usage` entry once the site is found (send `Idempotency-Key` so a retry is charged once); 402 when the balance is short. Answers the parcel's facts, the score as a batch `site_result` reports it, what was charged and the balance after.",
      middleware: [requireAuth, requireOrg(), rateLimit("score")],
      request: {
        headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
        body: { required: true, content: { "application/json": { schema: ScoreBody } } },
      },
      responses: {
        200: {
          description: "The scored site",
          content: {
            "application/json": {
              schema: z.object({
                parcel: ParcelSchema,
                score: z.number(),
                rating: z.enum(["high", "medium", "low"]),
                components: z.array(z.record(z.string(), z.unknown())),
                reasons: z.array(z.string()),
                feasibility: z.record(z.string(), z.unknown()),
                charged: z.number(),
                balance: z.number(),
                replayed: z.boolean(),
              }),
            },
          },
        },
        ...pickErrors(402, 404, 429, 503),
      },
    }),
    async (c) => {
      const { principal, services, membership } = c.var;
      const packs = await services.packs.forOrg(membership.orgId);
      const site = siteOf(c.req.valid("json"), "body");
      const parcel = locateSite(packs, site);
      const header = c.req.valid("header")["idempotency-key"];
      // The key names the site too: the same key for another site is new work, not a replay.
      const siteKey = "lot_id" in site ? `lot:${site.lot_id}` : `pt:${site.lng},${site.lat}`;
      const key = header ? `parcel-score:${header}:${siteKey}` : `parcel-score:${crypto.randomUUID()}`;
      const ctx = { db: services.db(), orgId: membership.orgId, userId: principal.userId, packs };
      const out = await scoreOneSite(ctx, parcel, key);
      const r = out.result;
      return c.json(
        {
          parcel: out.parcel,
          score: r.score,
          rating: r.rating,
          components: snakeKeys(r.components) as Record<string, unknown>[],
          reasons: r.reasons,
          feasibility: snakeKeys({ ...r, components: undefined, reasons: undefined }) as Record<string, unknown>,
          charged: out.charged,
          balance: out.balance,
          replayed: out.replayed,
        },
        200,
      );
    },
  );
