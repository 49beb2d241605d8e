// A bounding box as the API takes it: four numbers [west, south, east, north] in WGS84 degrees.
import { z } from "zod";

const NAMES = ["west", "south", "east", "north"] as const;

// min/max rather than length(4): the OpenAPI generator drops `length`, so the document would not say "four".
export const BBoxSchema = z
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
          message: `Value error, ${NAMES[i]} must be between -${limit} and ${limit}`,
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
