// Coordinates and GeoJSON the answers share: [lon, lat] points, [W, S, E, N] boxes and lot outlines.
import { z } from "@hono/zod-openapi";

// Tuples say min/maxItems too: OpenAPI 3.1's prefixItems alone would let a longer array match.
export const LonLatSchema = z
  .tuple([z.number(), z.number()])
  .openapi({ minItems: 2, maxItems: 2, description: "[lon, lat] in WGS84 degrees" });

export const BBoxSchema = z
  .tuple([z.number(), z.number(), z.number(), z.number()])
  .openapi({ minItems: 4, maxItems: 4, description: "[west, south, east, north] in WGS84 degrees" });

const position = z.array(z.number()).min(2);

/** A lot's outline as the packs hold it, in WGS84. */
export const AreaGeometrySchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("Polygon"), coordinates: z.array(z.array(position)) }),
    z.object({ type: z.literal("MultiPolygon"), coordinates: z.array(z.array(z.array(position))) }),
  ])
  .openapi("AreaGeometry");

const CORNERS = ["west", "south", "east", "north"] as const;

/** A box as a request gives it: four numbers [west, south, east, north] in WGS84 degrees, in range and in order. */
// min/max rather than length(4): the OpenAPI generator drops `length`, so the document would not say "four".
export const BBoxInputSchema = z
  .array(z.number())
  .min(4)
  .max(4)
  .superRefine((b, ctx) => {
    if (b.length !== 4) return;
    b.forEach((v, i) => {
      const limit = i % 2 === 0 ? 180 : 90;
      if (v < -limit || v > limit)
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `Value error, ${CORNERS[i]} must be between -${limit} and ${limit}`,
        });
    });
    const [w, s, e, n] = b as [number, number, number, number];
    // Boxes across the antimeridian are not needed for Australian data and are refused rather than guessed.
    if (w >= e)
      ctx.addIssue({
        code: "custom",
        message: "Value error, bbox must be [west, south, east, north] with west < east",
      });
    if (s >= n)
      ctx.addIssue({
        code: "custom",
        message: "Value error, bbox must be [west, south, east, north] with south < north",
      });
  });

export type BBox = z.infer<typeof BBoxSchema>;
export type LonLat = z.infer<typeof LonLatSchema>;
export type AreaGeometry = z.infer<typeof AreaGeometrySchema>;
