// What a client may show about a pack: coverage, layers, provenance. No geometry.
import { packMetaOf, type Snapshot } from "./paged/index.ts";
import type { PackState } from "./private/build-state.ts";
import { type LayerProvenance, provenanceOf } from "./provenance.ts";
import type { LayerKind, Pack, UploadInfo } from "./types.ts";

export interface PackSummary {
  id: string;
  version: string;
  title: string;
  attribution: string;
  licence: string;
  note: string | null;
  bbox: [number, number, number, number];
  // synthetic: every feature is synthetic; synthetic_features: how many are (a layer may mix real and synthetic).
  layers: { name: string; kind: LayerKind; count: number; synthetic: boolean; synthetic_features: number }[];
  /** Bytes of the built pack. */
  size: number;
  /** Features across its layers. */
  features: number;
  /** An organisation's own pack (POST /packs), deletable by its owner or admins. */
  private: boolean;
  /** For uploaded packs: the layer, who uploaded it and when, the file it came from; null for the service's packs. */
  upload: UploadInfo | null;
  /** `ready` is served; `processing` or `failed` is the newest upload's (a ready version stays served meanwhile). */
  state: PackState;
  /** 0..1 of the newest upload's build (1 when ready). */
  progress: number;
  /** Why the newest upload failed, in a sentence; null otherwise. */
  failure: string | null;
  /** Per imported layer: source, query, fetched_at, as_at, count, licence, attribution; [] for other packs. */
  provenance: LayerProvenance[];
}

/** Fields of a pack that is served and has nothing being built. */
export const READY = { state: "ready", progress: 1, failure: null } as const;

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
    provenance: [],
    ...READY,
  };
}

/** A v2 pack's summary, from its root alone: its layers, or a lots pack's one polygon layer of lots. */
export function summarisePaged(s: Snapshot): PackSummary {
  const { meta } = s.root;
  const info = packMetaOf(meta);
  const count = s.header.featureCount;
  const synthetic = meta.info.synthetic !== undefined && meta.info.synthetic !== "false";
  const layers = meta.layers?.map((l) => ({
    name: l.name,
    kind: l.kind,
    count: l.count,
    synthetic: l.synthetic,
    synthetic_features: l.syntheticCount,
  })) ?? [{ name: "parcels", kind: "polygon", count, synthetic, synthetic_features: synthetic ? count : 0 }];
  return {
    id: meta.id,
    version: meta.version,
    title: info.title,
    attribution: info.attribution,
    licence: info.licence,
    note: info.note ?? null,
    bbox: [...meta.bbox],
    layers,
    size: s.header.objectLength,
    features: count,
    private: info.upload !== undefined,
    upload: info.upload ?? null,
    provenance: provenanceOf(meta.info),
    ...READY,
  };
}
