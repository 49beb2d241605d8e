// What a client may show about a pack: coverage, layers, provenance. No geometry.
import type { Pack } from "./types.ts";

export interface PackSummary {
  id: string;
  version: string;
  title: string;
  attribution: string;
  licence: string;
  note: string | null;
  bbox: [number, number, number, number];
  // synthetic: every feature is synthetic; synthetic_features: how many are (a layer may mix real and synthetic).
  layers: { name: string; kind: "point" | "polygon"; count: number; synthetic: boolean; synthetic_features: number }[];
}

export function summarisePack(pack: Pack): PackSummary {
  return {
    id: pack.id,
    version: pack.version,
    title: pack.meta.title,
    attribution: pack.meta.attribution,
    licence: pack.meta.licence,
    note: pack.meta.note ?? null,
    bbox: [...pack.bbox],
    layers: [...pack.layers.values()].map((l) => ({
      name: l.name,
      kind: l.kind,
      count: l.count,
      synthetic: l.synthetic,
      synthetic_features: l.syntheticCount,
    })),
  };
}
