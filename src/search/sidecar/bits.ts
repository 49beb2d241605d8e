// Bit-packing of a block's column: each value as `width` bits above the block's base, the all-ones code for none.

/** Bits needed to hold 0..n (at least 1). */
export function bitsFor(n: number): number {
  let w = 1;
  while (w < 32 && 2 ** w <= n) w++;
  return w;
}

/** Packs unsigned ints (each below 2^width) into 32-bit words, low bits first. */
export function packBits(values: ArrayLike<number>, width: number): Uint32Array {
  const words = new Uint32Array(Math.ceil((values.length * width) / 32));
  let bit = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const w = bit >>> 5;
    const s = bit & 31;
    words[w] = (words[w] as number) | ((v << s) >>> 0);
    // The value's high bits spill into the next word when it straddles two.
    if (s + width > 32) words[w + 1] = (words[w + 1] as number) | (v >>> (32 - s));
    bit += width;
  }
  return words;
}

/** The `n` values of `width` bits packed in `words`. */
export function unpackBits(words: Uint32Array, width: number, n: number, out: Uint32Array): void {
  const mask = width === 32 ? 0xffffffff : 2 ** width - 1;
  let bit = 0;
  for (let i = 0; i < n; i++) {
    const w = bit >>> 5;
    const s = bit & 31;
    let v = (words[w] as number) >>> s;
    if (s + width > 32) v = (v | ((words[w + 1] as number) << (32 - s))) >>> 0;
    out[i] = (v & mask) >>> 0;
    bit += width;
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** A float32's bits as an unsigned int in the float's own order (negative below positive), so ranges pack tight. */
export function sortableBits(x: number): number {
  f32[0] = x;
  const b = u32[0] as number;
  return b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
}

/** The float32 whose sortable bits are `s`. */
export function fromSortableBits(s: number): number {
  u32[0] = s & 0x80000000 ? (s & 0x7fffffff) >>> 0 : ~s >>> 0;
  return f32[0] as number;
}
