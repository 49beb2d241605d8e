// What an upload answers, and what it built before the pack is stored (in the request, or handed to the build queue).
import type { PackState } from "../private/build-state.ts";
import type { BBox, Pack } from "../types.ts";

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
  bytes: Uint8Array;
  /** The v1 pack the upload was first built as, decoded (what a v2 lots pack is then built from). */
  pack: Pack;
  customMetadata: Record<string, string>;
  uploaded: UploadedPack;
}
