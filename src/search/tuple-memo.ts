// A memo keyed by a fixed-width tuple of numbers, compared exactly (NaN equal to NaN), so no two keys collide: what a
// search sorted by value prices once per distinct lot (neighbours repeat their size, yield and suburb).

const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

export class TupleMemo {
  private keys: Float64Array;
  private values: Float64Array;
  private used: Uint8Array;
  private size = 0;
  private readonly mask: number;
  private readonly width: number;
  private readonly entries: number;

  /** At most `entries` tuples of `width` numbers; when full it starts again empty (memory stays bounded). */
  constructor(width: number, entries: number) {
    this.width = width;
    this.entries = entries;
    const slots = 2 ** Math.ceil(Math.log2(2 * entries));
    this.mask = slots - 1;
    this.keys = new Float64Array(slots * width);
    this.values = new Float64Array(slots);
    this.used = new Uint8Array(slots);
  }

  // The slot holding `key`, or the empty slot where it would go.
  private slotOf(key: Float64Array): number {
    const w = this.width;
    let h = 0x811c9dc5;
    for (let k = 0; k < w; k++) h = Math.imul(h ^ ((key[k] as number) * 64), 0x01000193);
    // A product carries low bits up, never down: whole numbers (times 64) would leave the low bits, the slot's, alike.
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      if (this.used[s] === 0) return s;
      let k = 0;
      while (k < w && same(this.keys[s * w + k] as number, key[k] as number)) k++;
      if (k === w) return s;
    }
  }

  get(key: Float64Array): number | undefined {
    const s = this.slotOf(key);
    return this.used[s] === 0 ? undefined : this.values[s];
  }

  set(key: Float64Array, value: number): void {
    if (this.size >= this.entries) {
      this.used.fill(0);
      this.size = 0;
    }
    const s = this.slotOf(key);
    if (this.used[s] === 0) {
      this.used[s] = 1;
      this.size++;
      this.keys.set(key.subarray(0, this.width), s * this.width);
    }
    this.values[s] = value;
  }
}
