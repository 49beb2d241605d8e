// What a client may show about a pack: coverage, layers, provenance. No geometry.
import type { Pack, UploadInfo } from "./types.ts";

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
  /** Bytes of the built pack. */
  size: number;
  /** Features across its layers. */
  features: number;
  /** An organisation's own pack (POST /packs), deletable by its owner or admins. */
  private: boolean;
  /** For uploaded packs: the layer, who uploaded it and when, the file it came from; null for the service's packs. */
  upload: UploadInfo | null;
}

export function summarisePack(pack: Pack): PackSummary {
  const layers = [...pack.layers.values()];
  return {
    id: pack.id,
    version: pack.version,
    title: pack.meta.title,
    attribution: pack.meta.attribution,
    licence: pack.meta.licence,
    note: pack.meta.note ?? null,
    bbox: [...pack.bbox],
    layers: layers.map((l) => ({
      name: l.name,
      kind: l.kind,
      count: l.count,
      synthetic: l.synthetic,
      synthetic_features: l.syntheticCount,
    })),
    size: pack.byteLength,
    features: layers.reduce((n, l) => n + l.count, 0),
    private: pack.meta.upload !== undefined,
    upload: pack.meta.upload ?? null,
  };
}
