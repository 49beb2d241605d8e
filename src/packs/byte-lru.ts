// A map bounded by the bytes its values hold: least recently used entries go first, and an entry older
// than its time to live is never returned.
export class ByteLru<V> {
  private entries = new Map<string, { value: V; bytes: number; at: number }>();
  private total = 0;

  private readonly maxBytes: number;
  private readonly ttlMs: number;

  constructor(maxBytes: number, ttlMs: number) {
    this.maxBytes = maxBytes;
    this.ttlMs = ttlMs;
  }

  get bytes(): number {
    return this.total;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  get(key: string, now: number = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (now - e.at >= this.ttlMs) {
      this.delete(key);
      return undefined;
    }
    // Map order is insertion order: re-inserting marks it most recently used.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Stores `value`; a value larger than the whole budget is not kept. */
  set(key: string, value: V, bytes: number, now: number = Date.now()): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes, at: now });
    this.total += bytes;
    for (const [k] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.bytes;
  }
}
