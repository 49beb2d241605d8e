// Column coding 1 of a v2 data page (issue 33): integers bit-packed over the page's own dictionary of values or
// from its smallest value, dictionary codes bit-packed, text split into a leading number and a remainder coded
// through the page's dictionary (addresses share a street and suburb, lot ids a plan, within a Hilbert page).
import { type ByteReader, type ByteWriter, decodeUtf8, encodeUtf8 } from "./bytes.ts";

const DICTIONARY = 0;
const FRAME = 1;

/** Bits that hold every integer 0..max. */
export function bitsFor(max: number): number {
  return max <= 0 ? 0 : 32 - Math.clz32(max);
}

function varintBytes(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

// n codes of `bits` each, least significant bit first, in ceil(n * bits / 8) bytes.
function pack(w: ByteWriter, codes: ArrayLike<number>, bits: number): void {
  if (bits === 0) return;
  let acc = 0;
  let filled = 0;
  for (let i = 0; i < codes.length; i++) {
    acc += (codes[i] as number) * 2 ** filled;
    filled += bits;
    while (filled >= 8) {
      w.u8(acc % 256);
      acc = Math.floor(acc / 256);
      filled -= 8;
    }
  }
  if (filled > 0) w.u8(acc);
}

function unpack(r: ByteReader, b: Uint8Array, end: number, n: number, bits: number, out: Uint32Array): void {
  if (bits === 0) {
    out.fill(0);
    return;
  }
  if (bits > 32) throw new RangeError(`${bits} bits a value`);
  const at = r.pos;
  const bytes = Math.ceil((n * bits) / 8);
  if (at + bytes > end) throw new RangeError("packed values run past their section");
  r.pos = at + bytes;
  let bit = 0;
  if (bits <= 24) {
    // Four bytes always cover a value: bytes past the array read as 0 and bits past the value are masked off.
    const mask = (1 << bits) - 1;
    for (let i = 0; i < n; i++) {
      const k = at + (bit >>> 3);
      const word =
        (b[k] as number) | ((b[k + 1] as number) << 8) | ((b[k + 2] as number) << 16) | ((b[k + 3] as number) << 24);
      out[i] = (word >>> (bit & 7)) & mask;
      bit += bits;
    }
    return;
  }
  const top = 2 ** bits;
  for (let i = 0; i < n; i++) {
    const k = at + (bit >>> 3);
    const lo =
      ((b[k] as number) | ((b[k + 1] as number) << 8) | ((b[k + 2] as number) << 16) | ((b[k + 3] as number) << 24)) >>>
      0;
    const v = Math.floor(lo / 2 ** (bit & 7)) + ((b[k + 4] as number) | 0) * 2 ** (32 - (bit & 7));
    out[i] = v % top;
    bit += bits;
  }
}

/**
 * Unsigned integers (below 2^32): a dictionary of the page's distinct values (ascending, delta varints) and each
 * value's code, or the smallest value and each value's difference from it, whichever is smaller; codes bit-packed.
 */
export function writeInts(w: ByteWriter, values: ArrayLike<number>): void {
  const n = values.length;
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  const distinct = new Set<number>();
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
    distinct.add(v);
  }
  if (n === 0) min = 0;
  const dict = [...distinct].sort((a, b) => a - b);
  const dictBits = bitsFor(dict.length - 1);
  let dictBytes = Math.ceil((n * dictBits) / 8);
  for (let k = 0; k < dict.length; k++)
    dictBytes += varintBytes((dict[k] as number) - (k > 0 ? (dict[k - 1] as number) : 0));
  const frameBits = bitsFor(max - min);
  const frameBytes = Math.ceil((n * frameBits) / 8) + varintBytes(min);
  if (frameBytes <= dictBytes) {
    w.u8(FRAME);
    w.varint(min);
    w.u8(frameBits);
    const codes = new Float64Array(n);
    for (let i = 0; i < n; i++) codes[i] = (values[i] as number) - min;
    pack(w, codes, frameBits);
    return;
  }
  w.u8(DICTIONARY);
  w.varint(dict.length);
  let prev = 0;
  const code = new Map<number, number>();
  dict.forEach((v, k) => {
    w.varint(v - prev);
    prev = v;
    code.set(v, k);
  });
  w.u8(dictBits);
  const codes = new Float64Array(n);
  for (let i = 0; i < n; i++) codes[i] = code.get(values[i] as number) as number;
  pack(w, codes, dictBits);
}

function byteAt(r: ByteReader, b: Uint8Array, end: number): number {
  if (r.pos >= end) throw new RangeError("packed integers cut short");
  return b[r.pos++] as number;
}

/** Reads what writeInts wrote: n unsigned integers. */
export function readInts(r: ByteReader, b: Uint8Array, end: number, n: number): Uint32Array {
  const scheme = byteAt(r, b, end);
  const out = new Uint32Array(n);
  if (scheme === FRAME) {
    const min = r.varint();
    const bits = byteAt(r, b, end);
    unpack(r, b, end, n, bits, out);
    if (min !== 0) for (let i = 0; i < n; i++) out[i] = (out[i] as number) + min;
    return out;
  }
  if (scheme !== DICTIONARY) throw new RangeError(`unknown integer scheme ${scheme}`);
  const size = r.varint();
  if (size > n) throw new RangeError(`dictionary of ${size} values for ${n} features`);
  const dict = new Uint32Array(size);
  let prev = 0;
  for (let k = 0; k < size; k++) {
    prev += r.varint();
    dict[k] = prev;
  }
  const bits = byteAt(r, b, end);
  unpack(r, b, end, n, bits, out);
  for (let i = 0; i < n; i++) {
    const c = out[i] as number;
    if (c >= size) throw new RangeError(`code ${c} past a dictionary of ${size}`);
    out[i] = dict[c] as number;
  }
  return out;
}

/** Strings: a count, then each as a varint byte length and UTF-8. */
export function writeStrings(w: ByteWriter, list: readonly string[]): void {
  w.varint(list.length);
  for (const s of list) {
    const b = encodeUtf8(s);
    w.varint(b.length);
    w.bytes(b);
  }
}

export function readStrings(r: ByteReader, b: Uint8Array, end: number, most: number): string[] {
  const size = r.varint();
  if (size > most) throw new RangeError(`${size} strings for ${most} features`);
  const out: string[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const l = r.varint();
    if (r.pos + l > end) throw new RangeError("string runs past its section");
    out[i] = decodeUtf8(b.subarray(r.pos, r.pos + l));
    r.pos += l;
  }
  return out;
}

/** Dictionary codes of a page's strings: code 0 is null, code k names list[k - 1] (first seen first). */
export function dictionaryOf(values: readonly (string | null)[]): { list: string[]; codes: Uint32Array } {
  const index = new Map<string, number>();
  const list: string[] = [];
  const codes = new Uint32Array(values.length);
  values.forEach((s, i) => {
    if (s === null) return;
    let c = index.get(s);
    if (c === undefined) {
      list.push(s);
      c = list.length;
      index.set(s, c);
    }
    codes[i] = c;
  });
  return { list, codes };
}

// A leading number (no leading zero unless it is "0" alone, at most 9 digits) comes back as written.
const HEAD = /^(?:0|[1-9]\d{0,8})/;

/** Text: each value's leading number (0: none, else the number + 1) and its remainder's dictionary code. */
export function writeSplitText(w: ByteWriter, values: readonly (string | null)[]): void {
  const heads = new Float64Array(values.length);
  const rest = values.map((s, i) => {
    if (s === null) return null;
    const m = HEAD.exec(s);
    if (m === null) return s;
    heads[i] = Number(m[0]) + 1;
    return s.slice(m[0].length);
  });
  const { list, codes } = dictionaryOf(rest);
  writeStrings(w, list);
  writeInts(w, codes);
  writeInts(w, heads);
}

export function readSplitText(r: ByteReader, b: Uint8Array, end: number, n: number): (string | null)[] {
  const list = readStrings(r, b, end, n);
  const codes = readInts(r, b, end, n);
  const heads = readInts(r, b, end, n);
  const out: (string | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i] as number;
    if (c === 0) {
      out[i] = null;
      continue;
    }
    const s = list[c - 1];
    if (s === undefined) throw new RangeError(`text code ${c} past a dictionary of ${list.length}`);
    const h = heads[i] as number;
    out[i] = h === 0 ? s : `${h - 1}${s}`;
  }
  return out;
}
