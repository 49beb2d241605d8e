// A search polygon's ring checks (closed, simple, holes inside), added by the routes whose bodies carry one: they need
// the geometry code, which the wire contract (routes/schemas/) does not import.
import type { z } from "@hono/zod-openapi";
import { coordinatesProblem } from "../report/geometry.ts";

/** Adds the first problem of `polygon`'s rings at `path`; a body with an issue already (size, shape) is left as it is. */
export function checkPolygon(
  ctx: z.RefinementCtx,
  path: (string | number)[],
  polygon: { coordinates: number[][][] } | undefined,
): void {
  if (!polygon || ctx.issues.length > 0) return;
  const problem = coordinatesProblem("Polygon", polygon.coordinates);
  if (problem) ctx.addIssue({ code: "custom", path: [...path, ...problem.path], message: problem.message });
}
