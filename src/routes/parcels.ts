// GET /parcels (a lot's facts, free) and POST /parcels/score (one site, charged like a batch row).
import { z } from "@hono/zod-openapi";
import { createRouter } from "../request/router.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { requireAuth, requireOrg } from "../request/access.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { errors } from "../http/errors.ts";
import { decimalText } from "../http/numbers.ts";
import { packsForCaller } from "../request/caller.ts";
import { parcelFacts } from "../assess/map-facts.ts";
import { locateParcel, siteArea, type SiteRef } from "../assess/locate-lot.ts";
import { scoreParcel } from "../assess/score-site.ts";
import { UNIT_PRICE } from "../credits/prices.ts";
import { currentAssumptions } from "../value/store.ts";
import { countProblem, groupAreas } from "../assemble/locate-group.ts";
import { UnprocessableError } from "../errors.ts";
import { scoreGroup } from "../assemble/score-group.ts";
import {
  LatNumber,
  LngNumber,
  LotId,
  type ParcelFacts,
  ParcelFactsSchema,
  type ScoreAnswer,
  ScoreAnswerSchema,
  ScoreBody,
} from "./schemas/parcels.ts";

// Query text is a plain decimal ("0x97", "1e2", "+1" and "" are 422s, not numbers).
const Lng = decimalText(LngNumber).openapi({ type: "number", minimum: -180, maximum: 180, example: 151.0036 });
const Lat = decimalText(LatNumber).openapi({ type: "number", minimum: -90, maximum: 90, example: -33.8136 });

const ParcelQuery = z.object({ lng: Lng.optional(), lat: Lat.optional(), lot_id: LotId.optional() });

/** Exactly one form: a point (lng and lat together) or a lot id; anything else is a 422 saying so. */
export function siteRef(q: { lng?: number; lat?: number; lot_id?: string }, where: "query" | "body"): SiteRef {
  const point = q.lng !== undefined || q.lat !== undefined;
  const lot = q.lot_id !== undefined;
  if (point && lot) {
    throw errors.validation([
      {
        loc: [where, "lot_id"],
        msg: "Give either lng and lat, or lot_id, not both",
        type: "value_error",
        input: q.lot_id,
      },
    ]);
  }
  if (lot) return { lot_id: q.lot_id as string };
  if (q.lng === undefined || q.lat === undefined) {
    const missing = q.lng === undefined ? "lng" : "lat";
    throw errors.validation([
      {
        loc: [where, missing],
        msg: point ? `Field required with ${missing === "lng" ? "lat" : "lng"}` : "Give lng and lat, or lot_id",
        type: "missing",
      },
    ]);
  }
  return { lng: q.lng, lat: q.lat };
}

/** A group's lot ids, given alone: a point or a lot id beside them is a 422 saying so. */
function groupIds(b: { lng?: number; lat?: number; lot_id?: string; lot_ids?: string[] }): string[] {
  const also = (["lng", "lat", "lot_id"] as const).find((k) => b[k] !== undefined);
  if (also !== undefined) {
    throw errors.validation([
      {
        loc: ["body", also],
        msg: "Give lot_ids alone, without lng, lat or lot_id",
        type: "value_error",
        input: b[also],
      },
    ]);
  }
  const ids = b.lot_ids ?? [];
  const count = countProblem(ids.length);
  if (count !== null) throw new UnprocessableError(count, ["body", "lot_ids"], "invalid_group");
  return ids;
}

export const parcelRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/parcels",
      tags: ["map"],
      summary: "A lot's facts by point or lot id (free): zones, controls, overlays, nearest stop",
      middleware: [requireAuth, requireBuiltPacks, rateLimit("parcels")],
      request: { query: ParcelQuery },
      responses: {
        200: { description: "The parcel's facts", content: { "application/json": { schema: ParcelFactsSchema } } },
        ...pickErrors(404, 429),
      },
    }),
    async (c) => {
      const site = siteRef(c.req.valid("query"), "query");
      const packs = await packsForCaller(c, [siteArea(site)]);
      const facts = parcelFacts(packs, locateParcel(packs, site));
      // The producer types centroid as number[]; the stream and fuzz tests hold the answer to the exact schema.
      return c.json(facts as ParcelFacts, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      path: "/parcels/score",
      tags: ["map"],
      summary: `Score one site (${UNIT_PRICE.batch_score} credit, like a batch row)`,
      description: `Body \`{lng, lat}\`, \`{lot_id}\` or \`{lot_ids: [..]}\` (2 to 8 adjoining lots of one pack scored as one site, with \`group_id\` and \`lot_ids\`). Charged ${UNIT_PRICE.batch_score} credit once the lot is found (a miss is a free 404); send \`Idempotency-Key\` so a retry is charged once. Answers \`{parcel, score, rating, components, reasons, feasibility, charged, balance}\` after the charge is settled.`,
      middleware: [requireAuth, requireOrg(), requireBuiltPacks, rateLimit("parcel_score")],
      request: {
        headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
        body: { required: true, content: { "application/json": { schema: ScoreBody } } },
      },
      responses: {
        200: {
          description: "The scored site",
          content: { "application/json": { schema: ScoreAnswerSchema } },
        },
        ...pickErrors(402, 404, 422, 429, 503),
        422: {
          ...pickErrors(422)[422],
          description:
            "Validation error, or a group that cannot be scored as one site: a lot not adjoining the rest, lots of different packs, a lot named twice (nothing is charged)",
        },
      },
    }),
    async (c) => {
      const { services, membership } = c.var;
      const body = c.req.valid("json");
      const idempotencyKey = c.req.valid("header")["idempotency-key"];
      if (body.lot_ids !== undefined) {
        const lotIds = groupIds(body);
        const packs = await services.packs.forOrg(membership.orgId, groupAreas(lotIds));
        const payer = services.payer(membership);
        const assumptions = await currentAssumptions({ db: services.db(), orgId: membership.orgId });
        return c.json((await scoreGroup({ payer, packs, lotIds, idempotencyKey, assumptions })) as ScoreAnswer, 200);
      }
      const site = siteRef(body, "body");
      const packs = await services.packs.forOrg(membership.orgId, [siteArea(site)]);
      const payer = services.payer(membership);
      const assumptions = await currentAssumptions({ db: services.db(), orgId: membership.orgId });
      // scorePayload's snake-cased figures are typed unknown; the fuzz test holds them to the exact schema.
      return c.json((await scoreParcel({ payer, packs, site, idempotencyKey, assumptions })) as ScoreAnswer, 200);
    },
  );
