// What an upload answers, and what it built before the pack is stored (in the request, or handed to the build queue).
import type { PackState } from "../private/build-state.ts";
import type { BBox } from "../types.ts";

export interface UploadedPack {
  pack_id: string;
  name: string;
  version: string;
  layers: string[];
  features: number;
  bbox: BBox;
  size: number;
  uploaded_by: string;
  uploaded_at: string;
  /** `ready` (201: routes use it now) or `processing` (202: a queue consumer builds it; GET /packs shows progress). */
  state: Exclude<PackState, "failed">;
  progress: number;
}

export interface BuiltPack {
  key: string;
  /** The upload as a v2 pack of its one layer (what a v2 lots pack is then built from). */
  bytes: Uint8Array;
  customMetadata: Record<string, string>;
  uploaded: UploadedPack;
}
