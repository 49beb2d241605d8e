// One scored site as batch rows and POST /parcels/score carry it: the lot, then the feasibility model's answer.
import { z } from "@hono/zod-openapi";
import { AreaGeometrySchema, LonLatSchema } from "./geometry.ts";

const share = z.number().openapi({ description: "Share of the lot, 0 to 1" });
const metres = z.number().nullable();

export const RatingSchema = z.enum(["high", "medium", "low"]).openapi("Rating");

export const ZoneShareSchema = z
  .strictObject({
    code: z.string(),
    name: z.string().nullable(),
    share,
    fsr: z.number().nullable(),
    height_m: metres,
    min_lot_size_m2: z.number().nullable(),
  })
  .openapi("ZoneShare");

const ControlShareSchema = z
  .strictObject({
    value: z.number(),
    share,
    label: z.string().nullable().openapi({ description: "The map's own class, e.g. 21-22.9 for a height band" }),
  })
  .openapi("ControlShare");

/** Each planning control as mapped on its own layer; a lot straddling two areas has two entries. */
export const ControlAreasSchema = z
  .strictObject({
    fsr: z.array(ControlShareSchema),
    height_m: z.array(ControlShareSchema),
    min_lot_size_m2: z.array(ControlShareSchema),
  })
  .openapi("ControlAreas");

export const NearestStopSchema = z
  .strictObject({ name: z.string(), mode: z.string(), distance_m: z.number() })
  .openapi("NearestStop");

export const ScoreComponentSchema = z
  .strictObject({
    key: z.enum(["development_potential", "site_constraints", "transport_access", "lot_geometry"]),
    label: z.string(),
    points: z.number().openapi({ description: "The potential's points, or (zero or less) what this factor took away" }),
    max_points: z.number(),
    factor: z.number().openapi({ description: "1 for the potential; the multiplier this step applied" }),
    detail: z.string(),
  })
  .openapi("ScoreComponent");

/** What stands on the lot (docs/design.md section 13): as its pack records it, or assumed by zone, and said which. */
export const ExistingSchema = z
  .strictObject({
    kind: z.enum(["house", "dual_occupancy", "strata", "vacant", "employment"]),
    dwellings: z.number().int().openapi({ description: "Dwellings standing: a strata building's are its units" }),
    strata_plan: z.string().optional().openapi({ description: "The strata plan's number, e.g. SP12345" }),
    units: z.number().int().optional().openapi({ description: "A strata building's units: its lots, so its owners" }),
    floor_space_m2: z.number().optional().openapi({ description: "Employment buildings' floor space, where recorded" }),
    collective_sale: z
      .strictObject({
        clause: z.string(),
        owners: z.number().int(),
        owners_needed: z.number().int(),
      })
      .optional()
      .openapi({
        description:
          "A strata lot: acquiring it takes a collective sale, a strata renewal plan the owners of at least 75% of its lots support",
      }),
    assumed: z.boolean().openapi({ description: "true: nothing is recorded, so the kind is assumed by zone" }),
  })
  .openapi("ExistingUse");

/** What stands on an amalgamation: the sums, and each lot's own (docs/design.md section 14). */
const ExistingOfGroupSchema = ExistingSchema.extend({
  lots: z
    .array(ExistingSchema.extend({ lot_id: z.string().nullable() }))
    .optional()
    .openapi({
      description:
        "An amalgamation's lots, each with what stands on it; the figures above are their sums, so the uplift counts beyond every dwelling bought",
    }),
}).openapi("ExistingOfSite");

const AmalgamationSchema = z
  .strictObject({
    lots: z.number().int(),
    lot_ids: z.array(z.string()),
    owners: z.number().int().openapi({ description: "Owners to buy from: a strata lot counts as its units" }),
    main_lot_id: z.string().nullable().openapi({ description: "The lot with the largest share of the area" }),
    main_share: z.number().openapi({ description: "The main lot's share of the area, 0..1" }),
    outside_main_zone: z
      .array(z.strictObject({ lot_id: z.string(), zone: z.string().nullable() }))
      .openapi({ description: "Lots whose own zone is not the main lot's" }),
  })
  .openapi("Amalgamation");

const PlaceReachSchema = z
  .strictObject({
    name: z.string(),
    walking_m: z
      .number()
      .nullable()
      .openapi({ description: "Walked over the streets; null: not measured (no streets known)" }),
    straight_m: z.number().openapi({ description: "The straight line to the same place" }),
  })
  .openapi("PlaceReach");

/** The nearest Schedule 11 station and the nearest designated town centre, by walking. */
export const ReachSchema = z
  .strictObject({ station: PlaceReachSchema.nullable(), centre: PlaceReachSchema.nullable() })
  .openapi("Reach");

/** Where the Housing SEPP's areas apply (docs/design.md section 13). */
export const PolicyAreaSchema = z
  .strictObject({
    kind: z.enum(["lmr_inner", "lmr_outer", "tod"]).nullable(),
    via: z
      .strictObject({
        kind: z.enum(["station", "centre"]),
        name: z.string(),
        walking_m: z.number().nullable(),
        straight_m: z.number(),
        basis: z.enum(["walking", "straight_line"]).openapi({
          description:
            "walking: the area is measured over the streets; straight_line: no streets known, or the TOD area as mapped",
        }),
      })
      .nullable(),
    excluded_by: z.array(z.string()).openapi({ description: "The exclusions of Housing SEPP s 164(1) the data shows" }),
  })
  .openapi("PolicyArea");

/** Every figure behind the score, so a planner can redo the sums by hand. */
export const FeasibilitySchema = z
  .strictObject({
    model_version: z.string(),
    lot_id: z.string().nullable(),
    area_m2: z.number(),
    frontage_m: z.number(),
    // Absent from results stored before feasibility v3 measured frontage on the street.
    frontage_basis: z.enum(["street", "estimated"]).optional().openapi({
      description:
        "street: the lot's boundary on the street (a battle-axe lot's handle width); estimated: no street known, the shorter side of its smallest enclosing rectangle",
    }),
    regularity: z.number(),
    zones: z.array(ZoneShareSchema),
    dominant_zone: ZoneShareSchema.nullable(),
    zone_category: z.enum(["apartment", "low_rise", "employment", "other"]).nullable(),
    controls: z.strictObject({ fsr: z.number().nullable(), height_m: metres, min_lot_size_m2: z.number().nullable() }),
    control_areas: ControlAreasSchema,
    gfa_potential_m2: z.number().nullable(),
    dwelling_yield: z.number().int().nullable(),
    yield_basis: z.enum([
      "apartments",
      "tod_apartments",
      "mid_rise_apartments",
      "low_rise_apartments",
      "shop_top_housing",
      "terraces",
      "multi_dwelling",
      "subdivision",
      "dual_occupancy",
      "single_dwelling",
      "too_small",
      "floor_space", // feasibility-v2's employment floor space, in results stored under v2
      "no_fsr",
      "not_residential",
      "no_zone",
    ]),
    subdivision: z.strictObject({ lots: z.number().int().nullable(), possible: z.boolean() }),
    dual_occupancy: z.strictObject({
      eligible: z.boolean(),
      zone_allows: z.boolean(),
      area_ok: z.boolean(),
      frontage_ok: z.boolean(),
      min_area_m2: z.number(),
      min_frontage_m: z.number(),
    }),
    hazards: z.strictObject({ flood: share, bushfire: share }),
    heritage: z.strictObject({ share, names: z.array(z.string()) }),
    transport: NearestStopSchema.nullable(),
    // Absent from results stored before feasibility v3 recorded what stands.
    existing: ExistingOfGroupSchema.optional(),
    existing_dwellings: z
      .number()
      .int()
      .openapi({ description: "Standing today: recorded, or assumed (1 on a residential lot)" }),
    uplift_dwellings: z.number().int().nullable(),
    uplift_floor_space_m2: z.number().nullable(),
    uplift_units: z.number().int().openapi({
      description: "The dwellings beyond those assumed to stand (v2: or floor space in 85 m² units at 75%)",
    }),
    heritage_kind: z.enum(["item", "conservation_area"]).nullable(),
    station: NearestStopSchema.nullable(),
    centre_distance_m: z.number().nullable(),
    policy: z.strictObject({
      area: z.enum(["tod", "lmr_inner", "lmr_outer", "none"]),
      distance_m: z.number().nullable(),
      from: z.enum(["station", "centre"]).nullable(),
      name: z.string().nullable(),
      excluded_by: z.string().nullable(),
    }),
    // docs/design.md section 13; absent from results stored before feasibility v3 walked the streets.
    policy_area: PolicyAreaSchema.optional(),
    reach: ReachSchema.nullable().optional(),
    // False where the zone's land use table (with the state policies) permits no housing: then no housing yield.
    // Absent from results stored before feasibility v3's land use tables.
    housing_permitted: z.boolean().optional().openapi({
      description:
        "Whether the zone's land use table, with the Housing SEPP's permissions, permits any housing with consent; false: no housing yield",
    }),
    yield_options: z.array(
      z.strictObject({
        basis: z.string(),
        permitted: z.boolean(),
        dwellings: z.number().int(),
        rule: z.string(),
        // The clause the test applies; absent from results stored before the rules carried their citations.
        clause: z.string().optional(),
        // Its floor space within its height and setbacks, the storeys its height allows, and what bounded its
        // dwellings; absent from results stored before feasibility v3 held each form to its height.
        gfa_m2: z.number().nullable().optional(),
        storeys: z.number().int().nullable().optional(),
        limited_by: z.enum(["fsr", "envelope", "site"]).nullable().optional(),
      }),
    ),
    score: z.number(),
    rating: RatingSchema,
    demo_data: z.boolean(),
    amalgamation: AmalgamationSchema.optional().openapi({
      description:
        "A group of adjoining lots scored as one site (docs/design.md section 14): area and outline the group's, zone and controls the main lot's",
    }),
  })
  .openapi("Feasibility");

/** The lot as a scored site shows it. */
export const ScoredParcelSchema = z
  .strictObject({
    lot_id: z.string().nullable(),
    pack_id: z.string(),
    area_m2: z.number(),
    centroid: LonLatSchema,
    address: z.string().nullable(),
    geojson: z.strictObject({
      type: z.literal("Feature"),
      geometry: AreaGeometrySchema,
      properties: z.strictObject({ lot_id: z.string().nullable() }),
    }),
  })
  .openapi("ScoredParcel");

/** The model's answer for one site (src/assess/site-payload.ts: scorePayload) with its lot. */
export const scoredSiteFields = {
  parcel: ScoredParcelSchema,
  score: z.number().openapi({ description: "0 to 100: the sum of the components' points" }),
  rating: RatingSchema,
  components: z.array(ScoreComponentSchema),
  reasons: z.array(z.string()),
  demo_data: z.boolean(),
  feasibility: FeasibilitySchema,
  group_id: z.string().optional().openapi({
    description:
      "A group of lots scored as one site: its id, as POST /sites/assemble gives the same lots and pack version",
  }),
  lot_ids: z.array(z.string()).optional().openapi({ description: "A group's lots, sorted" }),
};

export const ScoredSiteSchema = z.strictObject(scoredSiteFields).openapi("ScoredSite");

export type Rating = z.infer<typeof RatingSchema>;
export type ScoredSite = z.infer<typeof ScoredSiteSchema>;
