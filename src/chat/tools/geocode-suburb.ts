// geocode_suburb: a suburb's box, centre and state, and the map fitted to it.
import { wholePacks } from "../../packs/open-pack.ts";
import { tool } from "ai";
import { z } from "zod";
import { geocode, type GeocodeResult } from "../../geocode/gazetteer.ts";
import type { Pack } from "../../packs/types.ts";
import { point, suburbField } from "./tool-areas.ts";
import { bounded, type ToolContext } from "./context.ts";
import { refusal, roundBox, type ToolRun } from "./map.ts";

export type GeocodeSuburbOutput = Omit<GeocodeResult, "sal_code">;

export function geocodeSuburb(
  packs: readonly Pack[],
  input: { suburb: string },
): ToolRun<GeocodeSuburbOutput | { error: string }> {
  const hit = geocode(packs, input.suburb);
  if (!hit) return refusal(`Suburb not found: ${input.suburb.trim()}`);
  const bbox = roundBox(hit.bbox);
  return {
    output: { name: hit.name, state: hit.state, bbox, center: point(hit.center), pack_id: hit.pack_id },
    map: { bbox: { bbox, label: hit.state ? `${hit.name}, ${hit.state}` : hit.name } },
  };
}

export const geocodeSuburbTool = (ctx: ToolContext) =>
  tool({
    description: "Find a suburb: its bounding box, centre and state. The map fits to it.",
    inputSchema: z.object({ suburb: suburbField }),
    execute: bounded(ctx, (input) => geocodeSuburb(wholePacks(ctx.packs.visible), input)),
  });
