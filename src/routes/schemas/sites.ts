// The body and answer of POST /sites/search (docs/design.md section 11).
import { z } from "@hono/zod-openapi";
import { BBoxSchema, LonLatSchema } from "./geometry.ts";
import {
  EXCLUDABLE,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_MAX_POLYGON_VERTICES,
  SITE_SORTS,
} from "./limits.ts";

export { SITE_SORTS };

const Name = z.string().trim().min(2).max(100);

const SearchBBox = z
  .tuple([
    z.number().min(-180).max(180),
    z.number().min(-90).max(90),
    z.number().min(-180).max(180),
    z.number().min(-90).max(90),
  ])
  .refine((b) => b[0] < b[2] && b[1] < b[3], "A box is [west, south, east, north] with west < east and south < north")
  .openapi({ minItems: 4, maxItems: 4, description: "[west, south, east, north] in WGS84 degrees" });

// The rings' own checks (closed, simple, holes inside) need the geometry code: the routes add them (routes/polygons.ts).
export const SearchPolygon = z
  .object({ type: z.literal("Polygon"), coordinates: z.array(z.array(z.array(z.number()))) })
  .superRefine((g, ctx) => {
    const vertices = g.coordinates.reduce((n, ring) => n + ring.length, 0);
    if (vertices > SEARCH_MAX_POLYGON_VERTICES)
      ctx.addIssue({
        code: "custom",
        path: ["coordinates"],
        message: `A search polygon may have at most ${SEARCH_MAX_POLYGON_VERTICES} positions`,
      });
  })
  .openapi({ description: `A valid GeoJSON Polygon in WGS84, at most ${SEARCH_MAX_POLYGON_VERTICES} positions` });

const SearchAreaSchema = z
  .object({
    suburb: Name.optional().openapi({ description: "A suburb name, as GET /geocode takes it", example: "Epping" }),
    lga: Name.optional().openapi({ description: "A local government area, e.g. Parramatta", example: "Parramatta" }),
    bbox: SearchBBox.optional(),
    polygon: SearchPolygon.optional(),
  })
  .strict()
  .refine((a) => [a.suburb, a.lga, a.bbox, a.polygon].filter((x) => x !== undefined).length === 1, {
    message: "Give exactly one of suburb, lga, bbox or polygon",
  })
  .openapi("SearchArea");

const Measure = (max: number) => z.number().min(0).max(max);

const FiltersSchema = z
  .object({
    zones: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9]{1,6}$/, "A zone code is letters and digits, e.g. R3"),
      )
      .max(40)
      .optional()
      .openapi({ description: "Main zone codes to keep", example: ["R3", "R4"] }),
    area_m2: z
      .object({ min: Measure(1e8).optional(), max: Measure(1e8).optional() })
      .strict()
      .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, "min must not exceed max")
      .optional(),
    fsr_min: Measure(50).optional(),
    height_min_m: Measure(1000).optional(),
    meets_min_lot: z
      .boolean()
      .optional()
      .openapi({ description: "Area at least the minimum lot size (where one applies)" }),
    exclude: z
      .array(z.enum(EXCLUDABLE))
      .max(3)
      .optional()
      .openapi({ description: "Lots touched by these are left out" }),
    station_within_m: Measure(100_000).optional().openapi({ description: "At most this far from a station (metres)" }),
  })
  .strict()
  .openapi("SearchFilters");

export const SearchBodySchema = z
  .object({
    area: SearchAreaSchema,
    filters: FiltersSchema.optional(),
    sort: z.enum(SITE_SORTS).optional().openapi({
      description:
        "area, fsr, height: largest first; station: nearest first; value: largest margin over the as-is value on the organisation's valuation assumptions first (lots with no housing scheme last; results carry no value figures)",
      default: "area",
    }),
    limit: z.number().int().min(1).max(SEARCH_MAX_LIMIT).optional().openapi({ default: SEARCH_DEFAULT_LIMIT }),
    cursor: z
      .string()
      .min(1)
      .max(2000)
      .nullable()
      .optional()
      .openapi({ description: "next_cursor of the previous answer" }),
  })
  .strict()
  .openapi("SiteSearchRequest");

const SiteResultSchema = z
  .object({
    pack_id: z.string(),
    lot_id: z.string().nullable(),
    center: LonLatSchema.openapi({ description: "The lot's label point: a point inside it" }),
    area_m2: z.number(),
    zone: z.string().nullable().openapi({ description: "The main zone code" }),
    fsr: z.number().nullable(),
    height_m: z.number().nullable(),
    min_lot_m2: z.number().nullable(),
    overlays: z.object({ flood: z.number(), bushfire: z.number(), heritage: z.number() }),
    station: z.object({ name: z.string(), distance_m: z.number() }).nullable(),
    address: z.string().nullable(),
    suburb: z.string().nullable(),
    lga: z.string().nullable(),
    demo_data: z.boolean(),
  })
  .openapi("FoundSite");

export const SearchAnswerSchema = z
  .object({
    count: z.number().int().openapi({ description: "Every lot of the area passing the filters" }),
    results: z.array(SiteResultSchema),
    next_cursor: z.string().nullable(),
    bbox: BBoxSchema.openapi({ description: "The matches' extent (the area's box when none match)" }),
  })
  .openapi("SiteSearchAnswer");

/** The body as a client writes it (optional fields may be left out). */
export type SearchBody = z.input<typeof SearchBodySchema>;
export type SearchAnswer = z.infer<typeof SearchAnswerSchema>;
export type FoundSite = z.infer<typeof SiteResultSchema>;
