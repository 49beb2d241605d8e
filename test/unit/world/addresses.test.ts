// The synthetic world's street addresses: every lot for sale has one, none is shared, and each street has odd numbers
// on one side and even on the other, running on along it with no gaps, as a person finding a lot by address expects.
import { describe, expect, it } from "vitest";
import { packLots, smallPack, smallWorld } from "./small-world.ts";

const SUBURBS = ["Penrith", "Emu Plains", "Bondi"];
const LOTS = 3000;
const LAND_USES = new Set(["RE1", "C2", "SP2"]);
const built = smallWorld(SUBURBS, LOTS);
const ADDRESS = /^(\d+) ([A-Z][A-Za-z ]+ (Street|Road|Avenue|Parade|Crescent|Place|Close|Drive|Way|Lane)), (.+) NSW$/;

describe("the synthetic world's addresses", () => {
  it("give every lot but parks, reserves and infrastructure a street address in its own suburb, no two the same", () => {
    const all = built.flatMap((b) =>
      b.addresses.flatMap((a, i) => {
        const zone = b.plan.lots[i]?.zone ?? "";
        expect(a === null, `${b.plan.suburb.name} lot ${i} (${zone}): ${a}`).toBe(LAND_USES.has(zone));
        return a === null ? [] : [[a, b.plan.suburb.name] as const];
      }),
    );
    expect(all.length).toBeGreaterThan(0);
    expect(built.some((b) => b.plan.lots.some((l) => l.zone === "RE1"))).toBe(true);
    for (const [address, suburb] of all) {
      const m = ADDRESS.exec(address);
      expect(m, address).not.toBeNull();
      expect(m?.[4]).toBe(suburb);
    }
    expect(new Set(all.map(([a]) => a)).size).toBe(all.length);
  });

  it("number each side of a street 1, 3, 5, ... or 2, 4, 6, ... in order along it, with no gaps", () => {
    for (const b of built) {
      const sides = new Map<string, { u: number; n: number }[]>();
      b.plan.lots.forEach((l, i) => {
        if (b.addresses[i] === null) return;
        const m = ADDRESS.exec(b.addresses[i] ?? "");
        const n = Number(m?.[1]);
        const key = `${m?.[2]}:${n % 2}`;
        sides.set(key, [...(sides.get(key) ?? []), { u: l.u0, n }]);
      });
      expect(sides.size).toBeGreaterThan(1);
      for (const lots of sides.values()) {
        lots.sort((x, y) => x.u - y.u);
        const first = lots[0]?.n ?? 0;
        expect(first === 1 || first === 2).toBe(true);
        expect(lots.map((l) => l.n)).toEqual(lots.map((_, k) => first + 2 * k));
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
    for (const h of hits) expect(h.properties.address ?? null).toBe(want.get(String(h.properties.lot_id)));
  });
});
