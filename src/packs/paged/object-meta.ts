// What a v2 pack's R2 object says of itself in its custom metadata, so the listing that names it is enough to open it
// in one range read: its format, and how many bytes its header and root take.
import { FORMAT_VERSION, HEADER_BYTES, readHeader } from "./schema.ts";

// Keys in the object's custom metadata; `format` is the one private uploads have carried since issue 33.
const FORMAT = "format";
const HEAD_BYTES = "head_bytes";

/** The metadata to store with a v2 pack whose first bytes (at least its 64-byte header) are `head`. */
export function pagedObjectMetadata(head: Uint8Array, key: string): Record<string, string> {
  const h = readHeader(head.subarray(0, HEADER_BYTES), key);
  return { [FORMAT]: String(FORMAT_VERSION), [HEAD_BYTES]: String(h.dataStart) };
}

/** Whether the metadata says the object is a v2 pack (undefined: it does not say; read its first bytes). */
export function isPagedObject(meta: Record<string, string> | undefined): boolean | undefined {
  const f = meta?.[FORMAT];
  return f === undefined ? undefined : f === String(FORMAT_VERSION);
}

/** The header and root's length the metadata gives, unchecked (the reader ignores a length no root can have). */
export function headBytesOf(meta: Record<string, string> | undefined): number | undefined {
  const v = meta?.[HEAD_BYTES];
  return v === undefined ? undefined : Number(v);
}
