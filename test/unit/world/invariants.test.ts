// What must hold everywhere in the synthetic Greater Sydney for a person to believe it (packs/README.md, "Plausible
// by construction"), checked over a world spanning the city's kinds of place: parks are parks, hazards keep to the
// bush and the rivers, every lot reaches a street, and no two lots overlap.
import { describe, expect, it } from "vitest";
import { NO_BUSHFIRE_LGAS } from "../../../scripts/world/character.ts";
import { qx, qy } from "../../../scripts/world/lattice.ts";
import type { Lot, Plan } from "../../../scripts/world/plan.ts";
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/index.ts";
import { context, smallWorld } from "./small-world.ts";

// The CBD, inner terraces, the inner-west councils, the middle ring, leafy north, strategic centres, a new estate, the
// rural fringe, industry and the bushy south.
const SUBURBS = [
  "Sydney",
  "Surry Hills",
  "Newtown",
  "Leichhardt",
  "Burwood",
  "Strathfield",
  "Epping",
  "Hornsby",
  "Pymble",
  "Parramatta",
  "Liverpool",
  "Penrith",
  "Box Hill",
  "Oran Park",
  "Glenorie",
  "Smithfield",
  "Sutherland",
];
const built = smallWorld(SUBURBS, 30_000);
const ctx = context();

const centre = (p: Plan, l: Lot): [number, number] => {
  const u = (l.u0 + l.u1) / 2;
  const v = (l.v0 + l.v1) / 2;
  return [qx(p.frame, u, v) / UNITS_PER_DEGREE, qy(p.frame, u, v) / UNITS_PER_DEGREE];
};

// Lots of a plan with the bushfire overlay on any part of them.
function bushfireLots(b: (typeof built)[number]): Lot[] {
  const rows = new Map<string, [number, number][]>();
  for (const p of b.overlays.bushfire)
    rows.set(`${p.v0}:${p.v1}`, [...(rows.get(`${p.v0}:${p.v1}`) ?? []), [p.u0, p.u1]]);
  return b.plan.lots.filter((l) => (rows.get(`${l.v0}:${l.v1}`) ?? []).some(([a, c]) => a < l.u1 && c > l.u0));
}

describe("the synthetic world's invariants", () => {
  it("builds every place asked for", () => {
    for (const b of built) expect(b.plan.lots.length, b.plan.suburb.name).toBeGreaterThan(0);
  });

  it("puts no lot in the water, and no lot but a park's own reserve inside a park", () => {
    for (const b of built) {
      for (const l of b.plan.lots) {
        const [x, y] = centre(b.plan, l);
        expect(ctx.water.contains(x, y), `${b.plan.suburb.name} lot in water`).toBe(false);
        if (l.zone !== "RE1")
          expect(ctx.parks.contains(x, y), `${b.plan.suburb.name} ${l.zone} lot in a park`).toBe(false);
      }
    }
  });

  it("gives no park, reserve or infrastructure lot an address", () => {
    let parks = 0;
    for (const b of built) {
      b.plan.lots.forEach((l, i) => {
        if (l.zone === "RE1" || l.zone === "SP2" || l.zone === "C2") {
          parks++;
          expect(b.addresses[i], `${b.plan.suburb.name} ${l.zone}`).toBeNull();
        } else expect(b.addresses[i], `${b.plan.suburb.name} ${l.zone}`).not.toBeNull();
      });
    }
    expect(parks).toBeGreaterThan(0);
  });

  it("maps no bushfire-prone land in the inner ring or the councils that have none, and some in the bush", () => {
    for (const b of built) {
      const share = bushfireLots(b).length / b.plan.lots.length;
      if (b.plan.ch.cls === "inner" || b.plan.ch.cls === "cbd" || NO_BUSHFIRE_LGAS.has(b.plan.suburb.lga)) {
        expect(share, b.plan.suburb.name).toBe(0);
      }
    }
    const city = built.filter((b) => ["Liverpool", "Parramatta", "Penrith"].includes(b.plan.suburb.name));
    for (const b of city) expect(bushfireLots(b).length, `${b.plan.suburb.name}'s centre`).toBe(0);
    const bush = built.filter((b) => ["Hornsby", "Sutherland"].includes(b.plan.suburb.name));
    expect(bush.some((b) => bushfireLots(b).length > 0)).toBe(true);
  });

  it("fronts every lot onto a street: each lot's front or back edge is its block's edge on a road", () => {
    for (const b of built) {
      for (const l of b.plan.lots) {
        const c = b.plan.cells[l.cell];
        expect(c && (l.v0 === c.v0 || l.v1 === c.v1), `${b.plan.suburb.name} lot ${l.cell}/${l.lotNo}`).toBe(true);
      }
    }
  });

  it("overlaps no two lots by more than 1 m²", () => {
    for (const b of built) {
      const rows = new Map<number, Lot[]>();
      for (const l of b.plan.lots) rows.set(l.cell, [...(rows.get(l.cell) ?? []), l]);
      for (const lots of rows.values()) {
        for (let i = 0; i < lots.length; i++) {
          for (let k = i + 1; k < lots.length; k++) {
            const a = lots[i] as Lot;
            const o = lots[k] as Lot;
            const du = Math.min(a.u1, o.u1) - Math.max(a.u0, o.u0);
            const dv = Math.min(a.v1, o.v1) - Math.max(a.v0, o.v0);
            expect(du > 0 && dv > 0 ? du * dv : 0, `${b.plan.suburb.name} block ${a.cell}`).toBeLessThanOrEqual(1);
          }
        }
      }
      // Blocks are disjoint in the suburb's grid: two blocks never share ground.
      const cells = new Set(b.plan.lots.map((l) => l.cell));
      const seen = new Set<string>();
      for (const idx of cells) {
        const c = b.plan.cells[idx];
        const key = `${c?.j}:${c?.k}`;
        expect(seen.has(key), `${b.plan.suburb.name} block ${key} twice`).toBe(false);
        seen.add(key);
      }
    }
  });
});
