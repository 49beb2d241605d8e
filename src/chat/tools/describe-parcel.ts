// describe_parcel: what is on a lot — zones with shares and controls, overlays with shares, nearest stop.
import { tool } from "ai";
import { z } from "zod";
import { featureToGeometry } from "../../geo/columns.ts";
import { nearest, overlayCoverage, ZONES, zonesOnParcel, type OverlayCoverage } from "../../packs/spatial.ts";
import type { Pack } from "../../packs/types.ts";
import { HERITAGE_AREA, type LotRecord } from "../../packs/paged/index.ts";
import type { ParcelHit } from "../../packs/spatial.ts";
import { bounded, type ToolContext, toolPacks } from "./context.ts";
import { collection, r2, refusal, roundBox, type Feature, type ToolRun } from "./map.ts";
import {
  hitFeature,
  isSyntheticLayer,
  locateParcel,
  locatorAreas,
  lotBasics,
  lotIdField,
  type ParcelLocator,
} from "./parcel-hit.ts";

// Same bound the scoring model uses for "a stop nearby".
const STOP_SEARCH_M = 5_000;
const OVERLAYS = ["flood", "bushfire", "heritage"] as const;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

export interface OverlaySummary {
  share: number;
  categories: { category: string; share: number; names: string[] }[];
}

export interface DescribeParcelOutput {
  lot_id: string | null;
  address: string | null;
  area_m2: number;
  centroid: [number, number];
  pack_id: string;
  zones: {
    code: string | null;
    name: string | null;
    share: number;
    fsr: number | null;
    height_m: number | null;
    min_lot_m2: number | null;
  }[];
  overlays: Record<(typeof OVERLAYS)[number], OverlaySummary>;
  nearest_transport: { name: string; mode: string; distance_m: number } | null;
  demo_data: boolean;
}

function summary(c: OverlayCoverage): OverlaySummary {
  return {
    share: r2(c.share),
    categories: c.categories.map((k) => ({
      category: k.category,
      share: r2(k.share),
      names: [...new Set(k.features.map((f) => text(f.props.name)).filter((n): n is string => n !== null))],
    })),
  };
}

function overlayFeatures(packs: readonly Pack[], layer: string, c: OverlayCoverage): Feature[] {
  return c.categories.flatMap((k) =>
    k.features.flatMap((f): Feature[] => {
      const l = packs.find((p) => p.id === f.packId)?.layers.get(layer);
      if (l?.kind !== "polygon") return [];
      return [
        {
          type: "Feature",
          geometry: featureToGeometry(l, f.index),
          properties: { layer, category: k.category, name: text(f.props.name), pack_id: f.packId },
        },
      ];
    }),
  );
}

// A lots pack's lot: its facts as precomputed by the same kernels; overlay outlines are not in the pack.
function fromRecord(hit: ParcelHit, record: LotRecord): ToolRun<DescribeParcelOutput> {
  const f = record.facts;
  const share = (s: number): OverlaySummary => ({ share: r2(s), categories: [] });
  const heritage: OverlaySummary =
    f.heritageShare > 0
      ? {
          share: r2(f.heritageShare),
          categories: [
            {
              category: record.place.heritageKind & HERITAGE_AREA ? "Conservation area" : "Heritage item",
              share: r2(f.heritageShare),
              names: f.heritageNames,
            },
          ],
        }
      : share(0);
  return {
    output: {
      ...lotBasics(hit),
      zones: f.zones.map((z) => ({
        code: z.code,
        name: z.name,
        share: r2(z.share),
        fsr: z.fsr,
        height_m: z.heightM,
        min_lot_m2: z.minLotSizeM2,
      })),
      overlays: { flood: share(f.hazards.flood), bushfire: share(f.hazards.bushfire), heritage },
      nearest_transport: f.nearestStop
        ? { name: f.nearestStop.name, mode: f.nearestStop.mode, distance_m: Math.round(f.nearestStop.distanceM) }
        : null,
      demo_data: f.demoData,
    },
    map: {
      bbox: { bbox: roundBox(hit.bbox), label: hit.lotId ?? "parcel" },
      parcels: collection([
        hitFeature(hit, {
          zone: f.zones[0]?.code ?? null,
          flood_share: r2(f.hazards.flood),
          bushfire_share: r2(f.hazards.bushfire),
          heritage_share: r2(f.heritageShare),
        }),
      ]),
    },
  };
}

export function describeParcel(
  packs: readonly Pack[],
  input: ParcelLocator,
): ToolRun<DescribeParcelOutput | { error: string }> {
  const hit = locateParcel(packs, input);
  if (typeof hit === "string") return refusal(hit);
  if (hit.record) return fromRecord(hit, hit.record);
  const zones = zonesOnParcel(packs, hit.polygon);
  const coverage = Object.fromEntries(OVERLAYS.map((o) => [o, overlayCoverage(packs, hit.polygon, o)])) as Record<
    (typeof OVERLAYS)[number],
    OverlayCoverage
  >;
  const [stop] = nearest(packs, "transport", hit.centroid[0], hit.centroid[1], 1, STOP_SEARCH_M);
  const sources: [string, string][] = [
    [hit.packId, "parcels"],
    ...zones.map((z): [string, string] => [z.packId, ZONES]),
    ...OVERLAYS.flatMap((o) =>
      coverage[o].categories.flatMap((k) => k.features.map((f): [string, string] => [f.packId, o])),
    ),
    ...(stop ? [[stop.packId, "transport"] as [string, string]] : []),
  ];
  const dominant = zones[0];
  return {
    output: {
      ...lotBasics(hit),
      zones: zones.map((z) => ({
        code: z.zone,
        name: text(z.props.zone_name),
        share: r2(z.share),
        fsr: num(z.props.fsr),
        height_m: num(z.props.height_m),
        min_lot_m2: num(z.props.min_lot_m2),
      })),
      overlays: {
        flood: summary(coverage.flood),
        bushfire: summary(coverage.bushfire),
        heritage: summary(coverage.heritage),
      },
      nearest_transport: stop
        ? {
            name: text(stop.props.name) ?? "Unnamed stop",
            mode: text(stop.props.mode) ?? "bus",
            distance_m: Math.round(stop.distanceM),
          }
        : null,
      demo_data: sources.some(([packId, layer]) => isSyntheticLayer(packs, packId, layer)),
    },
    map: {
      bbox: { bbox: roundBox(hit.bbox), label: hit.lotId ?? "parcel" },
      parcels: collection([
        hitFeature(hit, {
          zone: dominant?.zone ?? null,
          flood_share: r2(coverage.flood.share),
          bushfire_share: r2(coverage.bushfire.share),
          heritage_share: r2(coverage.heritage.share),
        }),
      ]),
      overlays: collection(OVERLAYS.flatMap((o) => overlayFeatures(packs, o, coverage[o]))),
    },
  };
}

export const describeParcelTool = (ctx: ToolContext) =>
  tool({
    description:
      "Describe one parcel, by lot id or by a point: zones with their shares and planning controls (FSR, height, minimum lot size), flood, bushfire and heritage overlays with shares, and the nearest transport stop.",
    inputSchema: z.object({
      lot_id: lotIdField.optional(),
      lon: z.number().min(-180).max(180).optional(),
      lat: z.number().min(-90).max(90).optional(),
    }),
    execute: bounded(ctx, async (input) => {
      const packs = await toolPacks(ctx, locatorAreas(input));
      return typeof packs === "string" ? refusal(packs) : describeParcel(packs, input);
    }),
  });
