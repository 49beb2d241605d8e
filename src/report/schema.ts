// The body of POST /report/generate (spec: ReportGenerateRequest, ParcelGeometry), validated per geometry type.
import { z } from "zod";
import { formatNumber } from "../scoring/format.ts";
import { coordinatesProblem, MAX_POSITIONS, type ParcelGeometry } from "./geometry.ts";

export const MAX_SITES = 100;
export const MAX_TOP_N = 50;
export const DEFAULT_TOP_N = 5;
export const MAX_LOCATION_CHARS = 300;
/** JSON bodies above this are refused with 413 before parsing. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
/**
 * Positions across all of a body's geometries. A lot has tens to hundreds of positions, so 100 real sites stay far
 * below it; it matches the vertex cap of one uploaded feature, so a free-to-validate body costs no more geometry work
 * than one feature, where 2 MiB alone would admit about 120,000 positions (twelve geometries at the per-site cap).
 */
export const MAX_TOTAL_POSITIONS = 50_000;

// A geometry's positions; its own refinement may have failed (issues there do not stop this check), so nothing is assumed.
function positions(c: unknown, depth: number): number {
  if (!Array.isArray(c)) return 0;
  if (depth === 0) return c.length;
  let n = 0;
  for (const x of c) n += positions(x, depth - 1);
  return n;
}

export const ParcelGeometrySchema = z
  .object({
    type: z.enum(["Point", "Polygon", "MultiPolygon"]).meta({
      description: "Point (a centroid, replaced by the cadastre parcel containing it), Polygon or MultiPolygon",
    }),
    coordinates: z.unknown().meta({
      description: `GeoJSON coordinates of the stated type, WGS84 [longitude, latitude]; rings closed (first position repeated last) and simple (no ring crosses or touches itself or another; holes inside their outer ring; MultiPolygon parts apart), at most ${MAX_POSITIONS} positions`,
    }),
  })
  .superRefine((g, ctx) => {
    const problem = coordinatesProblem(g.type, g.coordinates);
    if (!problem) return;
    if (problem.expected === "array")
      ctx.addIssue({
        code: "invalid_type",
        expected: "array",
        path: problem.path,
        message: problem.message,
        input: undefined,
      });
    else ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  })
  .transform((g) => ({ type: g.type, coordinates: g.coordinates }) as ParcelGeometry)
  .meta({
    id: "ParcelGeometry",
    description: "A GeoJSON geometry: Point (centroid fallback), Polygon or MultiPolygon.",
    required: ["type", "coordinates"],
  });

export const ReportGenerateRequestSchema = z
  .object({
    scores: z.array(z.record(z.string(), z.unknown())).max(MAX_SITES).meta({
      description:
        "Free-form scoring results, in practice the `site_result` objects of the batch stream. `scores[i]` describes `parcel_geojsons[i]`; names, addresses and lot ids are read from it, the score itself is recomputed from the packs.",
    }),
    parcel_geojsons: z
      .array(ParcelGeometrySchema)
      .max(MAX_SITES)
      .superRefine((geometries, ctx) => {
        let total = 0;
        for (const [i, g] of geometries.entries()) {
          total += g.type === "Point" ? 1 : positions(g.coordinates, g.type === "Polygon" ? 1 : 2);
          if (total <= MAX_TOTAL_POSITIONS) continue;
          // The site that tips the total over is named, so the client knows which sites to send in another report.
          ctx.addIssue({
            code: "custom",
            path: [i, "coordinates"],
            message: `The geometries of one report may have at most ${formatNumber(MAX_TOTAL_POSITIONS)} positions in all; site ${i} brings the total to ${formatNumber(total)}`,
          });
          return;
        }
      })
      .meta({
        description: `One geometry per site. A Point is replaced by the cadastre parcel that contains it. At most ${formatNumber(MAX_TOTAL_POSITIONS)} positions across all geometries.`,
      }),
    pack_id: z
      .string()
      .max(200)
      .default("")
      .meta({ description: "Assess against this pack only; default: every pack visible to the organisation" }),
    location: z
      .string()
      .max(MAX_LOCATION_CHARS)
      .nullable()
      .default(null)
      .meta({ description: "Location label printed on the cover, e.g. a suburb or project name" }),
    top_n: z
      .number()
      .int()
      .min(1)
      .max(MAX_TOP_N)
      .default(DEFAULT_TOP_N)
      .meta({ description: `Sites given a detailed page, best first (1 to ${MAX_TOP_N})` }),
  })
  .superRefine((body, ctx) => {
    if (body.scores.length === 0 && body.parcel_geojsons.length === 0) {
      ctx.addIssue({
        code: "too_small",
        origin: "array",
        minimum: 1,
        inclusive: true,
        path: ["parcel_geojsons"],
        message: "A report needs at least one site",
        input: [],
      });
    }
  })
  .meta({ id: "ReportGenerateRequest" });

export type ReportRequest = z.output<typeof ReportGenerateRequestSchema>;
