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
