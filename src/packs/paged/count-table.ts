// Counts by key in typed arrays (open addressing): 12 bytes a key where a Map of non-Smi numbers costs about 60, so the
// builder's overview counts stay small beside millions of lots.

/** Counts by key read back in key order: a CountTable, or a store that spills to disk (the streamed build's). */
export interface KeyCounts {
  add(key: number): void;
  /** Calls `each` with every key and its count, keys ascending; once, after the last add. */
  sorted(each: (key: number, count: number) => void): void;
}

const EMPTY = 0;

export class CountTable implements KeyCounts {
  // Keys are stored plus one, so 0 marks an empty slot; keys are whole numbers in [0, 2^53 - 2].
  private keys: Float64Array;
  private counts: Uint32Array;
  private used = 0;

  constructor(capacity = 1 << 12) {
    let cap = 16;
    while (cap < capacity) cap *= 2;
    this.keys = new Float64Array(cap);
    this.counts = new Uint32Array(cap);
  }

  get size(): number {
    return this.used;
  }

  get byteLength(): number {
    return this.keys.byteLength + this.counts.byteLength;
  }

  /** Adds `n` to the count of `key`. */
  add(key: number, n = 1): void {
    if (2 * (this.used + 1) > this.keys.length) this.grow();
    const slot = this.slotOf(key + 1);
    if (this.keys[slot] === EMPTY) {
      this.keys[slot] = key + 1;
      this.used++;
    }
    this.counts[slot] = (this.counts[slot] as number) + n;
  }

  get(key: number): number {
    const slot = this.slotOf(key + 1);
    return this.keys[slot] === EMPTY ? 0 : (this.counts[slot] as number);
  }

  /** Every key with its count, in no particular order. */
  *entries(): Generator<[number, number]> {
    for (let s = 0; s < this.keys.length; s++) {
      const k = this.keys[s] as number;
      if (k !== EMPTY) yield [k - 1, this.counts[s] as number];
    }
  }

  /** Calls `each` with every key and its count, keys ascending. */
  sorted(each: (key: number, count: number) => void): void {
    const keys = new Float64Array(this.used);
    let k = 0;
    for (let s = 0; s < this.keys.length; s++) if (this.keys[s] !== EMPTY) keys[k++] = (this.keys[s] as number) - 1;
    keys.sort();
    for (const key of keys) each(key, this.get(key));
  }

  /** Forgets every key, keeping the table's size. */
  clear(): void {
    this.keys.fill(EMPTY);
    this.counts.fill(0);
    this.used = 0;
  }

  // Linear probing from a mix of the key's high and low 32 bits; the table is never more than half full.
  private slotOf(stored: number): number {
    const mask = this.keys.length - 1;
    const lo = stored >>> 0;
    const hi = Math.floor(stored / 4294967296) >>> 0;
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    let s = h & mask;
    while (this.keys[s] !== EMPTY && this.keys[s] !== stored) s = (s + 1) & mask;
    return s;
  }

  private grow(): void {
    const keys = this.keys;
    const counts = this.counts;
    this.keys = new Float64Array(keys.length * 2);
    this.counts = new Uint32Array(keys.length * 2);
    for (let s = 0; s < keys.length; s++) {
      const k = keys[s] as number;
      if (k === EMPTY) continue;
      const slot = this.slotOf(k);
      this.keys[slot] = k;
      this.counts[slot] = counts[s] as number;
    }
  }
}
