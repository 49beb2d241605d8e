// A pack's provenance and its layers' kinds, which both formats share, importing nothing (the v2 root's schema
// reads them, and types.ts reaches the v2 modules, so they cannot live there without a cycle).
import type { LayerProvenance } from "./provenance.ts";

export const LAYER_KINDS = ["point", "polygon", "line"] as const;
export type LayerKind = (typeof LAYER_KINDS)[number];

export type PackMeta = {
  title: string;
  attribution: string;
  licence: string;
  note?: string;
  // Present on packs an organisation uploaded (POST /packs).
  upload?: UploadInfo;
  // Present on packs imported from the NSW services (npm run import -- nsw): each layer's source and "as at".
  provenance?: LayerProvenance[];
};

export type UploadInfo = {
  layer: string;
  uploaded_by: string;
  uploaded_at: string;
  source: string;
};
