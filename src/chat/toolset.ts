// The tools one question may call, each bound to that question's packs, view, charging, map and bounds.
import { describeParcelTool } from "./tools/describe-parcel.ts";
import { findAssembliesTool } from "./tools/find-assemblies.ts";
import { findParcelsTool } from "./tools/find-parcels.ts";
import { geocodeSuburbTool } from "./tools/geocode-suburb.ts";
import { lookupLotTool } from "./tools/lookup-lot.ts";
import type { ToolContext } from "./tools/context.ts";
import { scoreSitesTool } from "./tools/score-sites.ts";
import { summariseAreaTool } from "./tools/summarise-area.ts";

export function chatTools(ctx: ToolContext) {
  return {
    geocode_suburb: geocodeSuburbTool(ctx),
    find_parcels: findParcelsTool(ctx),
    find_assemblies: findAssembliesTool(ctx),
    lookup_lot: lookupLotTool(ctx),
    describe_parcel: describeParcelTool(ctx),
    score_sites: scoreSitesTool(ctx),
    summarise_area: summariseAreaTool(ctx),
  };
}

export type ChatTools = ReturnType<typeof chatTools>;
