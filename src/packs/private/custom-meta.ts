// What an uploaded pack's R2 object carries as custom metadata: enough for GET /packs to list it without
// reading (or decoding) the pack, however large. R2 allows 8 KiB of metadata; every value here is bounded.
import type { PrivatePackEntry } from "./cache-object.ts";
import { READY, type PackSummary } from "../summary.ts";
import type { BBox, LayerKind, UploadInfo } from "../types.ts";

/** Characters of the uploaded file's name that are kept (the rest is cut, marked with an ellipsis). */
export const MAX_SOURCE_CHARS = 255;

/** `text` cut to at most `max` characters (code points, so no surrogate pair is split), ending with `…` when cut. */
export function boundText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

export interface StoredPackInfo {
  packId: string;
  version: string;
  name: string;
  kind: LayerKind;
  features: number;
  bbox: BBox;
  upload: UploadInfo;
}

export const attributionOf = (uploadedBy: string) => `Uploaded by ${uploadedBy}`;
export const PRIVATE_LICENCE = "Private";

export function packMetadata(p: StoredPackInfo): Record<string, string> {
  return {
    ...p.upload,
    pack_id: p.packId,
    version: p.version,
    name: p.name,
    kind: p.kind,
    features: String(p.features),
    bbox: JSON.stringify(p.bbox),
  };
}

function parseBbox(text: string | undefined): BBox | null {
  try {
    const v: unknown = JSON.parse(text ?? "");
    return Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === "number") ? (v as BBox) : null;
  } catch {
    return null;
  }
}

/** The listing of an uploaded pack from its metadata; null for one stored without it (then it must be read). */
export function summaryFromMetadata(entry: PrivatePackEntry): PackSummary | null {
  const m = entry.meta;
  const bbox = parseBbox(m.bbox);
  const features = Number(m.features);
  const { pack_id: id, version, name, layer, uploaded_by, uploaded_at, source } = m;
  if (!id || !version || !name || !layer || !uploaded_by || !uploaded_at || source === undefined) return null;
  if (!bbox || !Number.isInteger(features) || (m.kind !== "polygon" && m.kind !== "point")) return null;
  return {
    id,
    version,
    title: name,
    attribution: attributionOf(uploaded_by),
    licence: PRIVATE_LICENCE,
    note: null,
    bbox,
    layers: [{ name: layer, kind: m.kind, count: features, synthetic: false, synthetic_features: 0 }],
    size: entry.size,
    features,
    private: true,
    upload: { layer, uploaded_by, uploaded_at, source },
    provenance: [],
    ...READY,
  };
}
