// What the workspace says while the dev stack still builds the synthetic world (GET /health's `world`).
import type { WorldState } from "../../src/routes/schemas/health.ts";

/** How often the banner asks /health again: about as often as the API looks for the published world. */
export const WORLD_POLL_MS = 5_000;

/** The banner's sentence, or null when there is nothing to say (the world is ready, or health did not say). */
export function worldBannerText(world: WorldState | undefined): string | null {
  if (world?.state !== "building") return null;
  return `Building the synthetic Greater Sydney: ${world.percent}%`;
}
