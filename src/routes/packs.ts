// GET /packs (public and the organisation's packs), POST /packs (upload a private pack), DELETE /packs/{pack_id}.
import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createRouter } from "../request/router.ts";
import { deleted, pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { errors } from "../http/errors.ts";
import { requireAuth, requireRole } from "../request/access.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { callerOrgId } from "../request/caller.ts";
import { LAYER_NAMES } from "../packs/upload/layer-specs.ts";
import { hasControlCharacter } from "../packs/upload/build-layer.ts";
import { MAX_PACK_UPLOAD_BYTES, MAX_PRIVATE_PACKS } from "../packs/upload/uploads.ts";
import { SYNC_BUILD_MAX_FEATURES } from "../packs/private/build-state.ts";
import type { AuthEnv } from "../request/context.ts";
import { PackSummarySchema, UploadedPackSchema } from "./schemas/packs.ts";
import { withTileJson } from "./tilejson-of.ts";

const LayerParam = z.enum([...LAYER_NAMES, "lots"]).openapi({
  description: "The pack layer the features become (`lots` is `parcels`)",
  example: "lots",
});

const FieldMapping = z
  .string()
  .max(4000)
  .transform((text, ctx) => {
    try {
      return z.record(z.string().min(1).max(100), z.string().min(1).max(200)).parse(JSON.parse(text));
    } catch {
      ctx.addIssue({
        code: "custom",
        message: 'fields must be a JSON object of pack field to property, e.g. {"lot_id":"LOTID"}',
      });
      return z.NEVER;
    }
  });

const UploadForm = z.object({
  file: z.instanceof(File).openapi({
    type: "string",
    format: "binary",
    description: "A GeoJSON FeatureCollection, or a zipped Shapefile (.shp, .dbf, .prj)",
  }),
  // Shown in lists and e-mails: no control characters (line breaks included).
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((name) => !hasControlCharacter(name), "name must not hold control characters"),
  layer: LayerParam,
  fields: FieldMapping.optional().openapi({ type: "string", description: "Optional JSON field mapping" }),
});

// Multipart framing and the other fields on top of a full-size file.
const MULTIPART_ALLOWANCE = 64 * 1024;
const tooLarge = () => errors.payloadTooLarge(`The upload is larger than ${MAX_PACK_UPLOAD_BYTES / 1024 / 1024} MiB`);
const uploadLimit: MiddlewareHandler<AuthEnv> = bodyLimit({
  maxSize: MAX_PACK_UPLOAD_BYTES + MULTIPART_ALLOWANCE,
  onError: () => {
    throw tooLarge();
  },
});

export const packRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/packs",
      tags: ["packs"],
      summary: "Data packs visible to the caller: coverage, layers, attribution and licence",
      middleware: [requireAuth],
      responses: {
        200: {
          description: "Public packs and the organisation's private packs",
          content: { "application/json": { schema: z.array(PackSummarySchema) } },
        },
      },
    }),
    // Listed from metadata: an organisation can always see (and so delete) its packs, however large they are.
    async (c) => {
      const { packs } = c.var.services;
      // A public pack that cannot be opened (a refused root) still leaves the list answering, without TileJSON.
      const [summaries, publicPacks] = await Promise.all([
        packs.summaries(await callerOrgId(c)),
        packs.public().catch(() => null),
      ]);
      return c.json(await withTileJson(summaries, publicPacks, new URL(c.req.url).origin), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      path: "/packs",
      tags: ["packs"],
      summary: "Upload a private pack (owner or admin): GeoJSON or a zipped Shapefile",
      description: `Reprojected to WGS84 from the .prj (or the GeoJSON crs member): WGS84, Web Mercator, GDA94 and GDA2020 MGA zones 49-56. Limits: ${MAX_PACK_UPLOAD_BYTES / 1024 / 1024} MiB (413, the built pack with its stored tiles too), 250,000 features (422), text fields of at most 200 characters without control characters (422), ${MAX_PRIVATE_PACKS} private packs per organisation (409); invalid geometry is 422 naming the feature's index. Every route of the organisation uses the pack at once (201); more than ${SYNC_BUILD_MAX_FEATURES.toLocaleString("en-AU")} features answer 202 and are used once built.`,
      middleware: [requireAuth, requireRole("admin"), requireBuiltPacks, rateLimit("pack_upload"), uploadLimit],
      request: { body: { required: true, content: { "multipart/form-data": { schema: UploadForm } } } },
      responses: {
        201: { description: "The stored pack", content: { "application/json": { schema: UploadedPackSchema } } },
        202: {
          description: `More than ${SYNC_BUILD_MAX_FEATURES.toLocaleString("en-AU")} features: checked and stored, built by a queue (state \`processing\`; GET /packs shows its progress)`,
          content: { "application/json": { schema: UploadedPackSchema } },
        },
        ...pickErrors(400, 409, 413, 429, 503),
      },
    }),
    async (c) => {
      const form = c.req.valid("form");
      const { membership, principal, services } = c.var;
      const uploaded = await services.packs.upload({
        orgId: membership.orgId,
        uploadedBy: principal.email ?? principal.userId,
        file: form.file,
        fileName: form.file.name,
        name: form.name,
        layer: form.layer === "lots" ? "parcels" : form.layer,
        fields: form.fields,
      });
      return uploaded.state === "ready" ? c.json(uploaded, 201) : c.json(uploaded, 202);
    },
  )
  .openapi(
    route({
      method: "delete",
      path: "/packs/{pack_id}",
      tags: ["packs"],
      summary: "Delete a private pack (owner or admin); every route stops using it at once",
      middleware: [requireAuth, requireRole("admin")],
      request: { params: z.object({ pack_id: z.string().min(1).max(200) }) },
      responses: { ...deleted, ...pickErrors(404) },
    }),
    async (c) => {
      await c.var.services.packs.remove(c.var.membership.orgId, c.req.valid("param").pack_id);
      return c.body(null, 204);
    },
  );
