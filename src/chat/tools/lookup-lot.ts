// lookup_lot: a lot by its identifier ("Lot 12 DP 34567", "12//DP34567"), shown on the map.
import { tool } from "ai";
import { z } from "zod";
import type { Pack } from "../../packs/types.ts";
import { bounded, type ToolContext, toolPacks } from "./context.ts";
import { collection, refusal, roundBox, type ToolRun } from "./map.ts";
import { hitFeature, isSyntheticLayer, locateParcel, lotBasics, lotIdField } from "./parcel-hit.ts";

export interface LookupLotOutput {
  lot_id: string | null;
  address: string | null;
  area_m2: number;
  centroid: [number, number];
  pack_id: string;
  demo_data: boolean;
}

export function lookupLot(
  packs: readonly Pack[],
  input: { lot_id: string },
): ToolRun<LookupLotOutput | { error: string }> {
  const hit = locateParcel(packs, { lot_id: input.lot_id });
  if (typeof hit === "string") return refusal(hit);
  return {
    output: {
      ...lotBasics(hit),
      demo_data: isSyntheticLayer(packs, hit.packId, "parcels"),
    },
    map: {
      bbox: { bbox: roundBox(hit.bbox), label: hit.lotId ?? input.lot_id },
      parcels: collection([hitFeature(hit)]),
    },
  };
}

export const lookupLotTool = (ctx: ToolContext) =>
  tool({
    description: "Look up one lot by its identifier: address, area and location. The map shows it.",
    inputSchema: z.object({ lot_id: lotIdField }),
    execute: bounded(ctx, async (input) => {
      const packs = await toolPacks(ctx, [{ lotId: input.lot_id }]);
      return typeof packs === "string" ? refusal(packs) : lookupLot(packs, input);
    }),
  });
