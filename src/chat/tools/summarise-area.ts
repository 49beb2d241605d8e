// summarise_area: counts, zone mix, and the share of parcels touched by flood, bushfire and heritage.
import { wholePacks } from "../../packs/open-pack.ts";
import { tool } from "ai";
import { z } from "zod";
import type { BBox } from "../../geo/bbox.ts";
import { featuresInBbox } from "../../packs/spatial.ts";
import type { Pack } from "../../packs/types.ts";
import {
  anySynthetic,
  areaFields,
  areaPages,
  touchesOverlay,
  parcelsIn,
  resolveArea,
  zoneAt,
  type AreaInput,
} from "./tool-areas.ts";
import { bounded, type ToolContext, toolPacks } from "./context.ts";
import { collection, r1, r2, refusal, roundBox, type Feature, type ToolRun } from "./map.ts";

const OVERLAYS = ["flood", "bushfire", "heritage"] as const;
const MAX_OVERLAY_FEATURES = 50;
const STOPS_LISTED = 5;

export interface SummariseAreaOutput {
  area: string;
  bbox: BBox;
  parcels: number;
  total_area_m2: number;
  median_area_m2: number | null;
  zone_mix: { zone: string | null; parcels: number; share: number }[];
  flood: { parcels: number; share: number };
  bushfire: { parcels: number; share: number };
  heritage: { parcels: number; share: number };
  transport_count: number;
  transport_stops: { name: string | null; mode: string | null }[];
  scanned: number;
  scan_limited: boolean;
  demo_data: boolean;
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

export function summariseArea(
  packs: readonly Pack[],
  input: AreaInput,
  fallback: BBox | null,
): ToolRun<SummariseAreaOutput | { error: string }> {
  const area = resolveArea(packs, input, fallback);
  if (typeof area === "string") return refusal(area);
  const { parcels, scanned, limited } = parcelsIn(packs, area);
  const n = parcels.length;
  const zones = new Map<string | null, number>();
  const touched = { flood: 0, bushfire: 0, heritage: 0 };
  for (const p of parcels) {
    // A lots pack's lot carries its main zone and overlay shares; other packs are read from their overlays.
    const record = p.layer.record?.(p.index)?.facts;
    const z = record ? (record.zones[0]?.code ?? null) : zoneAt(packs, p.centroid[0], p.centroid[1]);
    zones.set(z, (zones.get(z) ?? 0) + 1);
    for (const o of OVERLAYS) {
      const on = record
        ? (o === "heritage" ? record.heritageShare : record.hazards[o]) > 0
        : touchesOverlay(packs, p, o);
      if (on) touched[o] += 1;
    }
  }
  const areas = parcels.map((p) => p.areaM2).sort((a, b) => a - b);
  const share = (k: number) => (n > 0 ? r2(k / n) : 0);
  const stops = featuresInBbox(packs, "transport", area.bbox, 1_000)
    .filter((s) => s.geometry.type === "Point" && area.contains(s.bbox[0], s.bbox[1]))
    // Stations before bus stops: they are what a planner asks about first.
    .sort(
      (a, b) =>
        Number(a.props.mode === "bus") - Number(b.props.mode === "bus") ||
        String(a.props.name).localeCompare(String(b.props.name)),
    );
  const overlays: Feature[] = OVERLAYS.flatMap((layer) =>
    featuresInBbox(packs, layer, area.bbox, MAX_OVERLAY_FEATURES).map(
      (f): Feature => ({ type: "Feature", geometry: f.geometry, properties: { layer, ...f.props, pack_id: f.packId } }),
    ),
  );
  return {
    output: {
      area: area.label,
      bbox: roundBox(area.bbox),
      parcels: n,
      total_area_m2: r1(areas.reduce((s, a) => s + a, 0)),
      median_area_m2: n > 0 ? r1(areas[Math.floor((n - 1) / 2)] as number) : null,
      zone_mix: [...zones.entries()]
        .map(([zone, k]) => ({ zone, parcels: k, share: share(k) }))
        .sort((a, b) => b.parcels - a.parcels),
      flood: { parcels: touched.flood, share: share(touched.flood) },
      bushfire: { parcels: touched.bushfire, share: share(touched.bushfire) },
      heritage: { parcels: touched.heritage, share: share(touched.heritage) },
      transport_count: stops.length,
      transport_stops: stops
        .slice(0, STOPS_LISTED)
        .map((s) => ({ name: text(s.props.name), mode: text(s.props.mode) })),
      scanned,
      scan_limited: limited,
      demo_data: anySynthetic(parcels),
    },
    map: { bbox: { bbox: roundBox(area.bbox), label: area.label }, overlays: collection(overlays) },
  };
}

export const summariseAreaTool = (ctx: ToolContext) =>
  tool({
    description:
      "Summarise a suburb or box: parcel count and sizes, zone mix, share of parcels touched by flood, bushfire and heritage overlays, transport stops.",
    inputSchema: z.object(areaFields),
    execute: bounded(ctx, async (input) => {
      const packs = await toolPacks(ctx, areaPages(wholePacks(ctx.packs.visible), input, ctx.fallbackBbox));
      return typeof packs === "string" ? refusal(packs) : summariseArea(packs, input, ctx.fallbackBbox);
    }),
  });
