// Lot-id index pages: sorted FNV-1a hashes of normalised lot ids, each with the data page that holds the lot.
import { frameFault, sealPage } from "./page-frame.ts";
import { PageRefusedError } from "./errors.ts";
import { INDEX_HEADER_BYTES, INDEX_MAGIC } from "./schema.ts";

export type LotIndexPage = { no: number; hashes: Uint32Array; pages: Uint16Array; bytes: number };

export const INDEX_PAGE_ENTRIES = 8192;

/** Layout: magic, crc32 over [8, end), page number, entry count k, u32 hashes[k], u16 pages[k], padded to 8. */
export function encodeIndexPage(no: number, hashes: Uint32Array, pages: Uint16Array): Uint8Array {
  const k = hashes.length;
  const len = (INDEX_HEADER_BYTES + 6 * k + 7) & ~7;
  const out = new Uint8Array(len);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = INDEX_MAGIC.charCodeAt(i);
  v.setUint32(8, no, true);
  v.setUint32(12, k, true);
  out.set(new Uint8Array(hashes.buffer, hashes.byteOffset, 4 * k), INDEX_HEADER_BYTES);
  out.set(new Uint8Array(pages.buffer, pages.byteOffset, 2 * k), INDEX_HEADER_BYTES + 4 * k);
  return sealPage(out);
}

/** Verifies and decodes lot-id index page `no`; an entry naming a page past `pageCount` refuses it. */
export function decodeIndexPage(
  b: Uint8Array,
  no: number,
  expectedCrc: number,
  key: string,
  pageCount: number,
): LotIndexPage {
  const refuse = (why: string) => new PageRefusedError(key, `pack ${key} lot-id index page ${no} refused: ${why}`, no);
  const fault = frameFault(b, INDEX_HEADER_BYTES, expectedCrc);
  if (fault) throw refuse(fault);
  const c = b.slice();
  const v = new DataView(c.buffer);
  const k = v.getUint32(12, true);
  if (INDEX_HEADER_BYTES + 6 * k > c.length) throw refuse(`${k} entries overrun it`);
  const hashes = new Uint32Array(c.buffer, INDEX_HEADER_BYTES, k);
  const pages = new Uint16Array(c.buffer, INDEX_HEADER_BYTES + 4 * k, k);
  for (let i = 0; i < k; i++) {
    if ((pages[i] as number) >= pageCount)
      throw refuse(`entry ${i} names page ${pages[i]}, past the ${pageCount} pages`);
    // Lookups binary-search the hashes.
    if (i > 0 && (hashes[i] as number) < (hashes[i - 1] as number)) throw refuse(`entry ${i} is out of order`);
  }
  return { no, hashes, pages, bytes: c.byteLength };
}

/** Data pages that may hold lots hashing to `h` (a hash collision can name more than one). */
export function pagesForHash(p: LotIndexPage, h: number): number[] {
  let lo = 0;
  let hi = p.hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((p.hashes[mid] as number) < h) lo = mid + 1;
    else hi = mid;
  }
  const out = new Set<number>();
  for (let i = lo; i < p.hashes.length && p.hashes[i] === h; i++) out.add(p.pages[i] as number);
  return [...out];
}
