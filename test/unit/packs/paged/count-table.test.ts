import { describe, expect, it } from "vitest";
import { CountTable } from "../../../../src/packs/paged/count-table.ts";

describe("CountTable", () => {
  it("counts the same keys as a Map, through growth, for keys up to 2^52", () => {
    const t = new CountTable(16);
    const m = new Map<number, number>();
    let seed = 7;
    for (let i = 0; i < 50_000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      // Keys shaped like the overview's: a cell (two 20-bit halves) times 4096 plus a zone.
      const key = ((seed % 3000) * 2 ** 20 + (seed % 997)) * 4096 + (seed % 7);
      const n = 1 + (i % 3);
      t.add(key, n);
      m.set(key, (m.get(key) ?? 0) + n);
    }
    t.add(0);
    m.set(0, 1);
    t.add(2 ** 52);
    m.set(2 ** 52, 1);
    expect(t.size).toBe(m.size);
    expect(new Map(t.entries())).toEqual(m);
    for (const [k, n] of m) expect(t.get(k)).toBe(n);
    expect(t.get(12345)).toBe(m.get(12345) ?? 0);
    const sorted: [number, number][] = [];
    t.sorted((k, n) => sorted.push([k, n]));
    expect(sorted).toEqual([...m].sort(([a], [b]) => a - b));
    const bytes = t.byteLength;
    t.clear();
    expect([t.size, t.get(0), [...t.entries()].length, t.byteLength]).toEqual([0, 0, 0, bytes]);
  });
});
