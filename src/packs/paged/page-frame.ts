// The frame every page kind shares (data, lot-id index, overview cells and blocks): its magic in bytes 0-3, then at
// offset 4 a crc32 over the bytes from offset 8 to the end, checked against the root's before anything is decoded.
import { crc32 } from "../crc32.ts";

/** The page's checksum, as its frame and the root's entry for it hold it. */
export const pageCrc = (page: Uint8Array): number => crc32(page.subarray(8));

/** Stamps the page's crc32 into its frame; returns the page. */
export function sealPage(page: Uint8Array): Uint8Array {
  new DataView(page.buffer, page.byteOffset, page.byteLength).setUint32(4, pageCrc(page), true);
  return page;
}

/** Why the bytes are not the page the root describes (too short for its header, or another checksum), or null. */
export function frameFault(page: Uint8Array, headerBytes: number, expectedCrc: number): string | null {
  if (page.length < headerBytes) return `only ${page.length} bytes`;
  const got = pageCrc(page);
  if (got === expectedCrc) return null;
  return `checksum mismatch (crc32 ${got.toString(16)}, root says ${expectedCrc.toString(16)})`;
}
