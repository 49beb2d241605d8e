// The answer of GET /health: liveness, the number of loaded data packs, and whether the synthetic world is ready.
import { z } from "@hono/zod-openapi";

export const WorldStateSchema = z
  .discriminatedUnion("state", [
    z.object({
      state: z.literal("building"),
      percent: z.number().int().min(0).max(99),
      phase: z.string().openapi({ description: "The build's current step (survey, lots, write, upload)" }),
    }),
    z.object({ state: z.literal("ready") }),
  ])
  .openapi("WorldState", {
    description:
      "`building` while the dev stack builds the synthetic Greater Sydney in the background (its data routes answer 503 with Retry-After until then); `ready` otherwise",
  });

export const HealthSchema = z
  .object({ status: z.string(), packs_loaded: z.number().int(), world: WorldStateSchema })
  .openapi("HealthResponse");

export type WorldState = z.infer<typeof WorldStateSchema>;
export type Health = z.infer<typeof HealthSchema>;
