// The synthetic world's street addresses: every lot has one, none is shared, and each street has odd numbers on
// one side and even on the other, rising along it, as a person finding a lot by address expects.
import { describe, expect, it } from "vitest";
import { packLots, smallPack, smallWorld } from "./small-world.ts";

const SUBURBS = ["Penrith", "Emu Plains", "Bondi"];
const LOTS = 3000;
const built = smallWorld(SUBURBS, LOTS);
const ADDRESS = /^(\d+) ([A-Z][A-Za-z ]+ (Street|Road|Avenue|Parade|Crescent|Place|Close|Drive|Way|Lane)), (.+) NSW$/;

describe("the synthetic world's addresses", () => {
  it("give every lot a street address in its own suburb, no two lots the same", () => {
    const all = built.flatMap((b) => b.addresses.map((a) => [a, b.plan.suburb.name] as const));
    expect(all.length).toBe(built.reduce((n, b) => n + b.plan.lots.length, 0));
    for (const [address, suburb] of all) {
      const m = ADDRESS.exec(address);
      expect(m, address).not.toBeNull();
      expect(m?.[4]).toBe(suburb);
    }
    expect(new Set(all.map(([a]) => a)).size).toBe(all.length);
  });

  it("number a street odd on one side and even on the other, rising along it", () => {
    for (const b of built) {
      const sides = new Map<string, { u: number; n: number }[]>();
      b.plan.lots.forEach((l, i) => {
        const m = ADDRESS.exec(b.addresses[i] ?? "");
        const n = Number(m?.[1]);
        const key = `${m?.[2]}:${n % 2}`;
        sides.set(key, [...(sides.get(key) ?? []), { u: l.u0, n }]);
      });
      expect(sides.size).toBeGreaterThan(1);
      for (const lots of sides.values()) {
        lots.sort((x, y) => x.u - y.u);
        for (let k = 1; k < lots.length; k++) expect(lots[k]?.n).toBeGreaterThan(lots[k - 1]?.n ?? 0);
      }
      // Both parities appear on streets with lots on both sides.
      const streets = new Set([...sides.keys()].map((k) => k.split(":")[0]));
      expect([...streets].some((s) => sides.has(`${s}:0`) && sides.has(`${s}:1`))).toBe(true);
    }
  });

  it("are stored in the world's v2 pack, where each lot keeps its own", async () => {
    const hits = await packLots(await smallPack(SUBURBS, LOTS));
    const want = new Map(built.flatMap((b) => b.lotIds.map((id, i) => [id, b.addresses[i]] as const)));
    expect(hits.length).toBe(want.size);
    for (const h of hits) expect(h.properties.address).toBe(want.get(String(h.properties.lot_id)));
  });
});
