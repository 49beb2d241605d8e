// Reads the wanted members of a zip archive with work bounded by the bytes received: the central directory is checked
// against the file's size before it is walked, and each member inflates under its declared size and a byte budget.
import { crc32 } from "../crc32.ts";
import { type InflateWork, OverCeilingError, inflateBounded } from "./inflate-bounded.ts";

/** The smallest central directory entry: its fixed part, with an empty name. */
export const MIN_CD_ENTRY_BYTES = 46;
const EOCD_BYTES = 22;
const MAX_COMMENT = 0xffff;

/** What reading a zip did: entries of the central directory walked, bytes inflated. */
export interface ZipWork extends InflateWork {
  entriesRead: number;
}

export const newZipWork = (): ZipWork => ({ entriesRead: 0, bytesInflated: 0 });

/** A zip that cannot be read safely; `overBudget` when only its unpacked size is the problem. */
export class ZipError extends Error {
  readonly overBudget: boolean;
  constructor(message: string, overBudget = false) {
    super(message);
    this.name = "ZipError";
    this.overBudget = overBudget;
  }
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const n = (v: number) => v.toLocaleString("en-AU");
const u64 = (view: DataView, at: number) => view.getUint32(at + 4, true) * 2 ** 32 + view.getUint32(at, true);
const METHODS: Record<number, string> = {
  1: "shrink",
  6: "implode",
  9: "deflate64",
  12: "bzip2",
  14: "lzma",
  93: "zstd",
  95: "xz",
  98: "ppmd",
  99: "AES encryption",
};

/** Where the central directory is and how many entries it claims, from the (zip64) end record. */
function directory(view: DataView): { count: number; size: number; offset: number; end: number } {
  const len = view.byteLength;
  let eocd = -1;
  // The end record sits within the last 22 + 65,535 bytes (its comment): a bounded scan back.
  for (let at = len - EOCD_BYTES; at >= Math.max(0, len - EOCD_BYTES - MAX_COMMENT); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipError("The file is not a readable zip archive: it has no end-of-central-directory record");
  let count = view.getUint16(eocd + 10, true);
  let size = view.getUint32(eocd + 12, true);
  let offset = view.getUint32(eocd + 16, true);
  let end = eocd;
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === 0x07064b50) {
    const at = u64(view, locator + 8);
    if (at + 56 > locator || view.getUint32(at, true) !== 0x06064b50) {
      throw new ZipError("The file is not a readable zip archive: its zip64 end record is missing or misplaced");
    }
    count = u64(view, at + 32);
    size = u64(view, at + 40);
    offset = u64(view, at + 48);
    end = at;
  }
  if (offset + size > end) {
    throw new ZipError(
      `The file is not a readable zip archive: its central directory (${n(size)} bytes at offset ${n(offset)}) does not fit in the file of ${n(len)} bytes`,
    );
  }
  if (count > Math.floor(size / MIN_CD_ENTRY_BYTES)) {
    throw new ZipError(
      `The file is not a readable zip archive: it claims ${n(count)} entries but its central directory of ${n(size)} bytes holds at most ${n(Math.floor(size / MIN_CD_ENTRY_BYTES))}`,
    );
  }
  return { count, size, offset, end };
}

/** A zip64 extra field's values replace the header's 0xFFFFFFFF ones, in this order. */
function zip64Sizes(view: DataView, extra: number, extraEnd: number, e: Entry): void {
  for (let at = extra; at + 4 <= extraEnd; ) {
    const id = view.getUint16(at, true);
    const len = view.getUint16(at + 2, true);
    if (at + 4 + len > extraEnd) return;
    if (id === 0x0001) {
      let p = at + 4;
      const take = () => {
        if (p + 8 > at + 4 + len) throw new ZipError(`The zip entry ${e.name} has a short zip64 extra field`);
        const v = u64(view, p);
        p += 8;
        return v;
      };
      if (e.size === 0xffffffff) e.size = take();
      if (e.compressedSize === 0xffffffff) e.compressedSize = take();
      if (e.localOffset === 0xffffffff) e.localOffset = take();
      return;
    }
    at += 4 + len;
  }
}

/** Walks the central directory, keeping the entries `keep` wants; at most (its size / 46) entries. */
function entries(view: DataView, keep: (name: string) => boolean, work: ZipWork): Entry[] {
  const dir = directory(view);
  const names = new TextDecoder();
  const kept: Entry[] = [];
  let at = dir.offset;
  const end = dir.offset + dir.size;
  for (let i = 0; i < dir.count; i++) {
    work.entriesRead++;
    if (at + MIN_CD_ENTRY_BYTES > end || view.getUint32(at, true) !== 0x02014b50) {
      throw new ZipError(`The file is not a readable zip archive: central directory entry ${i} is damaged`);
    }
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const next = at + MIN_CD_ENTRY_BYTES + nameLen + extraLen + view.getUint16(at + 32, true);
    if (next > end)
      throw new ZipError(`The file is not a readable zip archive: central directory entry ${i} runs past it`);
    const nameAt = at + MIN_CD_ENTRY_BYTES;
    const name = names.decode(new Uint8Array(view.buffer, view.byteOffset + nameAt, nameLen));
    if (keep(name)) {
      const e: Entry = {
        name,
        flags: view.getUint16(at + 8, true),
        method: view.getUint16(at + 10, true),
        crc: view.getUint32(at + 16, true),
        compressedSize: view.getUint32(at + 20, true),
        size: view.getUint32(at + 24, true),
        localOffset: view.getUint32(at + 42, true),
      };
      zip64Sizes(view, nameAt + nameLen, nameAt + nameLen + extraLen, e);
      kept.push(e);
    }
    at = next;
  }
  return kept;
}

/** The member's compressed bytes, found through its local header. */
function data(view: DataView, e: Entry): Uint8Array {
  const at = e.localOffset;
  if (at + 30 > view.byteLength || view.getUint32(at, true) !== 0x04034b50) {
    throw new ZipError(`The zip member ${e.name} has no local header where the directory says`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + e.compressedSize > view.byteLength) {
    throw new ZipError(
      `The zip member ${e.name} claims ${n(e.compressedSize)} compressed bytes, more than the file holds`,
    );
  }
  return new Uint8Array(view.buffer, view.byteOffset + start, e.compressedSize);
}

/** One member's bytes: stored or deflated, no larger than it declares nor than the budget left, CRC-32 checked. */
function member(view: DataView, e: Entry, budgetLeft: number, work: ZipWork): Uint8Array {
  if (e.flags & 1) throw new ZipError(`The zip member ${e.name} is encrypted: upload it unencrypted`);
  if (e.method !== 0 && e.method !== 8) {
    throw new ZipError(
      `The zip member ${e.name} is compressed with method ${e.method}${METHODS[e.method] ? ` (${METHODS[e.method]})` : ""}: only stored (0) and deflate (8) can be read`,
    );
  }
  const src = data(view, e);
  const lies = () => new ZipError(`The zip member ${e.name} declares ${n(e.size)} bytes but inflates to more`);
  let out: Uint8Array;
  if (e.method === 0) {
    if (src.length > e.size) throw lies();
    if (src.length > budgetLeft) throw new ZipError(`The zip member ${e.name} unpacks past the budget`, true);
    work.bytesInflated += src.length;
    out = src;
  } else {
    try {
      out = inflateBounded(src, Math.min(e.size, budgetLeft), work);
    } catch (err) {
      if (err instanceof OverCeilingError) {
        throw e.size <= budgetLeft ? lies() : new ZipError(`The zip member ${e.name} unpacks past the budget`, true);
      }
      throw new ZipError(
        `The zip member ${e.name} cannot be inflated: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (out.length !== e.size) {
    throw new ZipError(`The zip member ${e.name} declares ${n(e.size)} bytes but holds ${n(out.length)}`);
  }
  if (crc32(out) !== e.crc) throw new ZipError(`The zip member ${e.name} fails its CRC-32 check: the zip is damaged`);
  return out;
}

/**
 * The members `keep` wants, by name, unpacked. Refuses (ZipError) a directory that claims more entries than fit, members
 * whose declared sizes sum past `maxBytes` (overBudget, before anything inflates), and a member that inflates past its
 * declared size (stopped within one inflation step of it).
 */
export function unzipMembers(
  bytes: Uint8Array,
  keep: (name: string) => boolean,
  maxBytes: number,
  work: ZipWork = newZipWork(),
): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength < EOCD_BYTES) throw new ZipError("The file is not a readable zip archive: it is too short");
  const wanted = entries(view, keep, work);
  const declared = wanted.reduce((sum, e) => sum + e.size, 0);
  if (declared > maxBytes) {
    throw new ZipError(`The zip's members unpack to more than ${n(maxBytes / 1024 / 1024)} MiB`, true);
  }
  const out = new Map<string, Uint8Array>();
  let used = 0;
  for (const e of wanted) {
    const bytesOut = member(view, e, maxBytes - used, work);
    used += bytesOut.length;
    out.set(e.name, bytesOut);
  }
  return out;
}
