// Hostile zip payloads, generated (no node: imports, so workerd imports them too): a zip64 entry-count bomb and deflate bombs.

/** A member written as given: `data` already compressed with `method`; `size` is what the headers declare. */
export interface RawMember {
  name: string;
  data: Uint8Array;
  method: number;
  size: number;
  crc?: number;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A zip of raw members, sizes and CRCs exactly as given (32-bit fields only). */
export function zipOf(members: RawMember[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const m of members) {
    const name = ascii(m.name);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, m.method, true);
    lv.setUint32(14, m.crc ?? 0, true);
    lv.setUint32(18, m.data.length, true);
    lv.setUint32(22, m.size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, m.method, true);
    cv.setUint32(16, m.crc ?? 0, true);
    cv.setUint32(20, m.data.length, true);
    cv.setUint32(24, m.size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    cd.set(name, 46);
    parts.push(local, m.data);
    central.push(cd);
    offset += local.length + m.data.length;
  }
  const cdSize = central.reduce((s, c) => s + c.length, 0);
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, members.length, true);
  ev.setUint16(10, members.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  return concat([...parts, ...central, eocd]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * 184 bytes: one empty stored member, then a zip64 end record claiming 2^32 - 1 entries in a central directory of
 * 51 bytes (the end record says 0xFFFF, "see zip64"). A reader that loops over the claimed count never finishes.
 */
export function zip64EntryCountBomb(entries = 2 ** 32 - 1): Uint8Array {
  const plain = zipOf([{ name: "x.shp", data: new Uint8Array(0), method: 0, size: 0 }]);
  const body = plain.subarray(0, plain.length - 22);
  const cdOffset = 30 + 5;
  const cdSize = body.length - cdOffset;
  const z64 = new Uint8Array(56);
  const zv = new DataView(z64.buffer);
  zv.setUint32(0, 0x06064b50, true);
  zv.setBigUint64(4, 44n, true);
  zv.setUint16(12, 45, true);
  zv.setUint16(14, 45, true);
  // Entries on this disk stay 1: readers that take the total read on, past the end, as zeroed entries.
  zv.setBigUint64(24, 1n, true);
  zv.setBigUint64(32, BigInt(entries), true);
  zv.setBigUint64(40, BigInt(cdSize), true);
  zv.setBigUint64(48, BigInt(cdOffset), true);
  const locator = new Uint8Array(20);
  const lv = new DataView(locator.buffer);
  lv.setUint32(0, 0x07064b50, true);
  lv.setBigUint64(8, BigInt(body.length), true);
  lv.setUint32(16, 1, true);
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, 0xffff, true);
  ev.setUint16(10, 0xffff, true);
  ev.setUint32(12, 0xffffffff, true);
  ev.setUint32(16, 0xffffffff, true);
  return concat([body, z64, locator, eocd]);
}

/** LSB-first bit writer; the buffer starts zeroed, so runs of zero bits cost nothing to write. */
class Bits {
  pos = 0;
  readonly out: Uint8Array;
  constructor(out: Uint8Array) {
    this.out = out;
  }
  put(value: number, count: number): void {
    for (let i = 0; i < count; i++, this.pos++) if ((value >>> i) & 1) this.out[this.pos >>> 3]! |= 1 << (this.pos & 7);
  }
  /** A Huffman code goes out most significant bit first. */
  code(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--, this.pos++)
      if ((value >>> i) & 1) this.out[this.pos >>> 3]! |= 1 << (this.pos & 7);
  }
}

/**
 * A raw deflate stream of at least `length` zeros at deflate's greatest ratio (1032:1): one dynamic block whose
 * length-258 code and distance-1 code are one bit each, both 0, so its body is zero bytes. 4 GiB takes ~4 MiB.
 */
export function deflatedZeros(length: number): Uint8Array {
  const matches = Math.max(0, Math.ceil((length - 1) / 258));
  const headerBits = 3 + 14 + 18 * 3 + 32;
  const out = new Uint8Array(Math.ceil((headerBits + 2 + 2 * matches + 2) / 8) + 1);
  const b = new Bits(out);
  b.put(1, 1); // BFINAL
  b.put(2, 2); // dynamic Huffman
  b.put(286 - 257, 5); // HLIT
  b.put(0, 5); // HDIST: one distance code
  b.put(18 - 4, 4); // HCLEN: code-length codes up to symbol 1 in the permuted order
  // Code-length code lengths in order 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1: 18 -> 1 bit, 2 and 1 -> 2 bits.
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1];
  for (const sym of order) b.put(sym === 18 ? 1 : sym === 1 || sym === 2 ? 2 : 0, 3);
  // Canonical codes: 18 = "0", 1 = "10", 2 = "11". Literal 0: 2 bits; 1..255: 0; 256: 2; 257..284: 0; 285: 1; distance 0: 1.
  const one = () => b.code(0b10, 2);
  const two = () => b.code(0b11, 2);
  const zeros = (count: number) => {
    b.code(0, 1);
    b.put(count - 11, 7);
  };
  two();
  zeros(138);
  zeros(117);
  two();
  zeros(28);
  one();
  one();
  // Literal/length codes: 285 = "0", literal 0 = "10", end of block = "11"; distance 0 = "0".
  b.code(0b10, 2);
  b.pos += 2 * matches;
  b.code(0b11, 2);
  return out.subarray(0, Math.ceil(b.pos / 8));
}

export const PRJ_WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';

/** A zipped "Shapefile" whose .shp member declares `declared` bytes but inflates to `inflated` zeros. */
export function deflateBombZip(declared: number, inflated: number): Uint8Array {
  return zipOf([
    { name: "bomb.shp", data: deflatedZeros(inflated), method: 8, size: declared },
    { name: "bomb.dbf", data: new Uint8Array(0), method: 0, size: 0 },
    { name: "bomb.prj", data: ascii(PRJ_WGS84), method: 0, size: PRJ_WGS84.length },
  ]);
}
