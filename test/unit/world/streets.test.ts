// The synthetic world's map besides its lots: named streets where blocks were built (the names the addresses use), bus
// stops on them about 400 m apart, and one quad per built block in its main zone for the low zooms.
import { describe, expect, it } from "vitest";
import { blocksOf } from "../../../scripts/world/blocks.ts";
import { busStops, STOP_SPACING_M } from "../../../scripts/world/bus-stops.ts";
import type { Lot } from "../../../scripts/world/plan.ts";
import { type Street, streetGrid } from "../../../scripts/world/street-lines.ts";
import { mapOfPlan } from "../../../scripts/world/world-map.ts";
import { ZONE_CODES } from "../../../scripts/world/zones.ts";
import { smallWorld } from "./small-world.ts";

// The CBD, inner terraces, a strategic centre, leafy north, a new estate, industry (one deep row a block) and the south.
const SUBURBS = [
  "Sydney",
  "Surry Hills",
  "Parramatta",
  "Harris Park",
  "Hornsby",
  "Box Hill",
  "Smithfield",
  "Sutherland",
];
const built = smallWorld(SUBURBS, 20_000);
const grids = built.map((b) => streetGrid(b.plan));
const STREET_NAME = /^[A-Z][A-Za-z ]+ (Street|Road|Avenue|Parade|Crescent|Place|Close|Drive|Way|Lane)$/;
const ADDRESS = /^\d+ (.+), (.+) NSW$/;

// Distance (metres, in the plan's frame) from a point to the nearest part of any street.
function toStreet(streets: readonly Street[], u: number, v: number): number {
  let best = Infinity;
  for (const s of streets) {
    const [along, across] = s.dir === "row" ? [u, v - s.at] : [v, u - s.at];
    for (const [a, b] of s.parts) best = Math.min(best, Math.hypot(Math.max(a - along, 0, along - b), across));
  }
  return best;
}

const inside = (l: Lot, u: number, v: number) => u > l.u0 && u < l.u1 && v > l.v0 && v < l.v1;

describe("the synthetic world's streets", () => {
  it("name every street line as an address names a street, road lines and cross streets both", () => {
    for (const [k, g] of grids.entries()) {
      const name = built[k]?.plan.suburb.name;
      expect(g.streets.length, name).toBeGreaterThan(0);
      expect(g.streets.some((s) => s.dir === "cross")).toBe(true);
      for (const s of g.streets) {
        expect(s.name, `${name} ${s.dir} ${s.line}`).toMatch(STREET_NAME);
        expect(s.parts.length).toBeGreaterThan(0);
        for (const [a, b] of s.parts) expect(b - a).toBeGreaterThan(0);
      }
    }
  });

  it("carry every lot's address street name on the street line along its front, in its own suburb", () => {
    let checked = 0;
    for (const [k, b] of built.entries()) {
      const g = grids[k];
      if (!g) continue;
      const { road } = g;
      b.plan.lots.forEach((l, i) => {
        const address = b.addresses[i];
        if (!address) return;
        const street = ADDRESS.exec(address)?.[1];
        const c = b.plan.cells[l.cell];
        if (!c) throw new Error("lot in no block");
        // The front faces the road line before the row; a lot in the back half faces the one after it.
        const at = l.v0 === c.v0 ? c.v0 - road / 2 : c.v1 + road / 2;
        const line = g.streets.find(
          (s) => s.dir === "row" && Math.abs(s.at - at) < 1e-6 && s.parts.some(([a, e]) => a <= l.u0 && e >= l.u1),
        );
        expect(line?.name, `${address} (${b.plan.suburb.name})`).toBe(street);
        checked++;
      });
      const names = new Set(mapOfPlan(b.plan).streets.map((s) => `${s.name}|${s.suburb}`));
      for (const a of b.addresses) if (a) expect(names.has(`${ADDRESS.exec(a)?.[1]}|${b.plan.suburb.name}`)).toBe(true);
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it("give no two stretches of a suburb the same name, the same every time from the seed", () => {
    for (const [k, g] of grids.entries()) {
      const names = g.streets.map((s) => s.name);
      expect(new Set(names).size, built[k]?.plan.suburb.name).toBe(names.length);
    }
    const first = smallWorld(SUBURBS.slice(0, 2), 5000).map((b) => mapOfPlan(b.plan));
    const again = smallWorld(SUBURBS.slice(0, 2), 5000).map((b) => mapOfPlan(b.plan));
    expect(again[0]?.streets).toEqual(first[0]?.streets);
    expect(again[1]?.stops).toEqual(first[1]?.stops);
  });

  it("run only beside built blocks: every part of a street has a lot of a built block on one side of it", () => {
    for (const [k, g] of grids.entries()) {
      const b = built[k];
      if (!b) continue;
      const edge = g.road / 2;
      for (const s of g.streets) {
        for (const [a, e] of s.parts) {
          const beside = b.plan.lots.some((l) =>
            s.dir === "row"
              ? (Math.abs(l.v0 - edge - s.at) < 1e-6 || Math.abs(l.v1 + edge - s.at) < 1e-6) && l.u0 < e && l.u1 > a
              : (Math.abs(l.u0 - edge - s.at) < 1e-6 || Math.abs(l.u1 + edge - s.at) < 1e-6) && l.v0 < e && l.v1 > a,
          );
          expect(beside, `${b.plan.suburb.name} ${s.name}`).toBe(true);
        }
      }
    }
  });
});

describe("the synthetic world's bus stops", () => {
  const stops = grids.map((g) => busStops(g));

  it("stand on a street line, at its kerb (within a few metres of its centre), on no lot", () => {
    expect(stops.flat().length).toBeGreaterThan(100);
    for (const [k, list] of stops.entries()) {
      const g = grids[k];
      const b = built[k];
      if (!g || !b) continue;
      for (const s of list) {
        const d = toStreet(g.streets, s.u, s.v);
        expect(d, `${s.street}`).toBeLessThanOrEqual(g.road / 2);
        expect(d).toBeGreaterThan(1);
        expect(b.plan.lots.some((l) => inside(l, s.u, s.v))).toBe(false);
      }
    }
  });

  it("follow one another 300 to 500 m apart along each street, not evenly as a lattice would", () => {
    const gaps: number[] = [];
    for (const list of stops) {
      const runs = new Map<string, number[]>();
      for (const s of list) {
        const key = `${s.dir}:${s.line}:${s.run}`;
        runs.set(key, [...(runs.get(key) ?? []), s.along]);
      }
      for (const along of runs.values()) {
        along.sort((a, b) => a - b);
        for (let i = 1; i < along.length; i++) gaps.push((along[i] as number) - (along[i - 1] as number));
      }
    }
    expect(gaps.length).toBeGreaterThan(50);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(300);
      expect(gap).toBeLessThanOrEqual(500);
    }
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / gaps.length);
    expect(Math.abs(mean - STOP_SPACING_M)).toBeLessThan(20);
    expect(sd).toBeGreaterThan(10);
  });

  it("leave most houses within a short walk of a stop, each stop named for its street and the one it is near", () => {
    for (const [k, b] of built.entries()) {
      const list = stops[k] ?? [];
      const far = b.plan.lots.filter((l, i) => {
        if (!b.addresses[i]) return false;
        const u = (l.u0 + l.u1) / 2;
        const v = (l.v0 + l.v1) / 2;
        return !list.some((s) => Math.hypot(s.u - u, s.v - v) <= 600);
      }).length;
      const housed = b.addresses.filter((a) => a !== null).length;
      expect(far / housed, b.plan.suburb.name).toBeLessThan(0.05);
      for (const s of mapOfPlan(b.plan).stops) expect(s.name).toMatch(/^[A-Z][A-Za-z ]+ near [A-Z][A-Za-z ]+$/);
    }
  });
});

describe("the synthetic world's blocks", () => {
  it("are one quad per block holding lots (a joined park or bushland one per piece), around its lots, in its main zone", () => {
    for (const b of built) {
      const blocks = blocksOf(b.plan);
      const cells = [...new Set(b.plan.lots.map((l) => l.cell))].sort((x, y) => x - y);
      // Open land joined over its row's streets is one quad per piece, in its zone; any other block one quad.
      const expected = cells.flatMap((idx) => {
        const lots = b.plan.lots.filter((l) => l.cell === idx);
        const parts = lots.length === 1 ? lots[0]?.parts : undefined;
        if (parts) return parts.map((p) => ({ lots, box: p }));
        const box = {
          u0: Math.min(...lots.map((l) => l.u0)),
          u1: Math.max(...lots.map((l) => l.u1)),
          v0: Math.min(...lots.map((l) => l.v0)),
          v1: Math.max(...lots.map((l) => l.v1)),
        };
        return [{ lots, box }];
      });
      expect(blocks.length).toBe(expected.length);
      blocks.forEach((q, i) => {
        const { lots, box } = expected[i] as (typeof expected)[number];
        expect(ZONE_CODES).toContain(q.zone);
        const area = (z: string) =>
          lots.filter((l) => l.zone === z).reduce((n, l) => n + (l.u1 - l.u0) * (l.v1 - l.v0), 0);
        for (const z of ZONE_CODES) expect(area(q.zone)).toBeGreaterThanOrEqual(area(z));
        expect([q.u0, q.u1, q.v0, q.v1]).toEqual([box.u0, box.u1, box.v0, box.v1]);
      });
      const map = mapOfPlan(b.plan);
      expect(map.blocks.quads.length).toBe(8 * blocks.length);
      expect(map.blocks.zones).toEqual(blocks.map((q) => q.zone));
    }
  });
});
