// The per-isolate cache of decoded private packs: bounded by bytes (least recently used out) and by age.
import { describe, expect, it } from "vitest";
import { ByteLru } from "../../../src/packs/byte-lru.ts";

describe("ByteLru", () => {
  it("evicts the least recently used entries once the byte budget is exceeded", () => {
    const lru = new ByteLru<string>(100, 60_000);
    lru.set("a", "A", 40, 0);
    lru.set("b", "B", 40, 0);
    expect(lru.get("a", 1)).toBe("A"); // a is now the most recently used
    lru.set("c", "C", 40, 2);
    expect(lru.get("b", 3)).toBeUndefined();
    expect(lru.get("a", 3)).toBe("A");
    expect(lru.get("c", 3)).toBe("C");
    expect(lru.bytes).toBe(80);
  });

  it("never returns an entry older than its time to live", () => {
    const lru = new ByteLru<string>(100, 300_000);
    lru.set("a", "A", 10, 0);
    expect(lru.get("a", 299_999)).toBe("A");
    expect(lru.get("a", 300_000)).toBeUndefined();
    expect(lru.bytes).toBe(0);
  });

  it("does not keep a value larger than the whole budget, and replacing a key frees its old bytes", () => {
    const lru = new ByteLru<string>(100, 60_000);
    lru.set("big", "X", 101, 0);
    expect(lru.get("big", 0)).toBeUndefined();
    lru.set("a", "A1", 60, 0);
    lru.set("a", "A2", 70, 0);
    expect(lru.bytes).toBe(70);
    expect(lru.get("a", 0)).toBe("A2");
  });
});
