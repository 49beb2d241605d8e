// The pack file format: magic, version, header size, alignment and section names shared by encode and decode.
import type { BBox, LayerInfo, PackMeta } from "../types.ts";

// "GAPK": geo-assess pack.
export const MAGIC = [0x47, 0x41, 0x50, 0x4b] as const;
export const FORMAT_VERSION = 1;
// magic(4) version u16 reserved u16 directoryLength u32 checksum u32 fileLength u32 reserved u32
export const FIXED_HEADER_BYTES = 24;
export const ALIGN = 8;
export { INDEX_NODE_SIZE as FLATBUSH_NODE_SIZE } from "../layer-input.ts";

export const SECTION_NAMES = [
  "index",
  "coords",
  "ringOffsets",
  "polyOffsets",
  "featureOffsets",
  "propOffsets",
  "propData",
] as const;
export type SectionName = (typeof SECTION_NAMES)[number];
// Sections a v1 pack may lack (written before they existed); readers fall back when absent.
export const OPTIONAL_SECTION_NAMES = ["featureVertices"] as const;
export type OptionalSectionName = (typeof OPTIONAL_SECTION_NAMES)[number];
export type AnySectionName = SectionName | OptionalSectionName;
export type Section = [offset: number, length: number];

export type LayerEntry = LayerInfo & {
  rings: number;
  polygons: number;
  vertices: number;
  sections: Record<SectionName, Section> & Partial<Record<OptionalSectionName, Section>>;
  // Optional (absent in older v1 packs): features in index leaf order; per-feature synthetic marks.
  order?: "index";
  syntheticField?: string;
  syntheticCount?: number;
};

// The JSON directory after the fixed header: everything about the pack except the bulk arrays.
export type Directory = {
  id: string;
  version: string;
  bbox: BBox;
  meta: PackMeta;
  layers: LayerEntry[];
};

export function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

// Byte size of a Flatbush v3 Float64 index, mirroring its constructor, so a section can be checked before Flatbush.from reads it.
export function flatbushByteSize(numItems: number, nodeSize: number): number {
  let n = numItems;
  let numNodes = n;
  do {
    n = Math.ceil(n / nodeSize);
    numNodes += n;
  } while (n !== 1);
  const indexBytes = numNodes < 16384 ? 2 : 4;
  return 8 + numNodes * 4 * 8 + numNodes * indexBytes;
}
