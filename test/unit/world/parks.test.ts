// Parks are parks (issue 49; packs/README.md, "Lots"): a park or bushland is open land, drawn as one piece per row of
// blocks over the streets between them, with no street through it and no lot of its own overlapping another.
import { describe, expect, it } from "vitest";
import { at } from "../../../scripts/world/lattice.ts";
import { isOpen } from "../../../scripts/world/open-land.ts";
import type { Lot } from "../../../scripts/world/plan.ts";
import { streetGrid } from "../../../scripts/world/street-lines.ts";
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/index.ts";
import { context, smallWorld } from "./small-world.ts";

// The Domain and Botanic Garden by the CBD, Parramatta Park, a new estate's and the rural fringe's bushland, the bush.
const SUBURBS = ["Sydney", "Parramatta", "Box Hill", "Glenorie", "Hornsby"];
const built = smallWorld(SUBURBS, 15_000);
const ctx = context();

type Box = { u0: number; u1: number; v0: number; v1: number };
const boxesOf = (l: Lot): readonly Box[] => l.parts ?? [l];
const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.u1, b.u1) - Math.max(a.u0, b.u0)) * Math.max(0, Math.min(a.v1, b.v1) - Math.max(a.v0, b.v0));

describe("parks and bushland", () => {
  it("join a row's wholly open blocks into one lot over the cross streets between them", () => {
    const longest = new Map<string, number>();
    for (const b of built) {
      const name = b.plan.suburb.name;
      // Blocks left as one open lot covering them whole: no two side by side in a row with one zone (they join).
      const whole = new Map<string, string>();
      for (const l of b.plan.lots) {
        const c = b.plan.cells[l.cell];
        if (
          c &&
          isOpen(l.zone) &&
          !l.rail &&
          !l.parts &&
          l.u0 === c.u0 &&
          l.u1 === c.u1 &&
          l.v0 === c.v0 &&
          l.v1 === c.v1
        )
          whole.set(`${c.j}:${c.k}`, l.zone);
      }
      for (const [key, zone] of whole) {
        const [j, k] = key.split(":").map(Number) as [number, number];
        expect(whole.get(`${j}:${k + 1}`), `${name} blocks ${key} and the next`).not.toBe(zone);
      }
      for (const l of b.plan.lots) {
        if (!l.parts) continue;
        expect(isOpen(l.zone), name).toBe(true);
        // Blocks and cross streets alternate: a run of n blocks is 2n - 1 pieces, its outline closed around them.
        const blocks = (l.parts.length + 1) / 2;
        longest.set(name, Math.max(longest.get(name) ?? 0, blocks));
        expect(l.outline?.length ?? 0, name).toBeGreaterThanOrEqual(4);
      }
    }
    expect(longest.get("Sydney") ?? 0, "the Domain").toBeGreaterThanOrEqual(3);
    expect(Math.max(longest.get("Box Hill") ?? 0, longest.get("Glenorie") ?? 0), "bushland").toBeGreaterThanOrEqual(3);
  });

  it("reach to the road's middle where the block across is open land too, so the pieces meet and overlap nothing", () => {
    let met = 0;
    for (const b of built) {
      const name = b.plan.suburb.name;
      const byRow = new Map<number, Lot[]>();
      for (const l of b.plan.lots) {
        const j = b.plan.cells[l.cell]?.j as number;
        byRow.set(j, [...(byRow.get(j) ?? []), l]);
      }
      for (const [j, lots] of byRow) {
        const near = [...(byRow.get(j - 1) ?? []), ...lots, ...(byRow.get(j + 1) ?? [])];
        for (const l of lots) {
          if (!l.parts) continue;
          // Only lots beside it along the row can meet it: a lot's box spans all its pieces.
          const beside = near.filter((o) => o.u0 < l.u1 && o.u1 > l.u0);
          for (const p of l.parts) {
            for (const o of beside) {
              if (o === l) continue;
              for (const q of boxesOf(o))
                expect(overlap(p, q), `${name} lot ${l.cell}/${l.lotNo}`).toBeLessThanOrEqual(1);
            }
            // A piece reaching past its row meets a piece of the open lot across the road on that line.
            if (p.v0 < l.v0) {
              expect(
                beside.some((o) => o !== l && boxesOf(o).some((q) => q.v1 === p.v0 && q.u0 < p.u1 && q.u1 > p.u0)),
              ).toBe(true);
              met++;
            }
          }
        }
      }
    }
    expect(met).toBeGreaterThan(0);
  });

  it("have no street through them: none runs over open land, and none deep inside a park's outline", () => {
    let inPark = 0;
    let points = 0;
    for (const b of built) {
      const name = b.plan.suburb.name;
      const open = b.plan.lots.filter((l) => isOpen(l.zone)).flatMap(boxesOf);
      const deg = (u: number, v: number): [number, number] => {
        const [x, y] = at(b.plan.frame, u, v);
        return [x / UNITS_PER_DEGREE, y / UNITS_PER_DEGREE];
      };
      for (const s of streetGrid(b.plan).streets) {
        for (const [from, to] of s.parts) {
          for (let a = from; a <= to; a += 10) {
            const [u, v] = s.dir === "row" ? [a, s.at] : [s.at, a];
            points++;
            // On the grid: a street's line never crosses a park or bushland lot (a metre's tolerance at its edge).
            const over = open.find((o) => u > o.u0 + 1 && u < o.u1 - 1 && v > o.v0 + 1 && v < o.v1 - 1);
            expect(over, `${name} ${s.name} over open land at ${u}, ${v}`).toBeUndefined();
            // On the ground: a street point inside a park lies by its edge (a street along a park), never 50 m in.
            const [x, y] = deg(u, v);
            if (!ctx.parks.contains(x, y)) continue;
            inPark++;
            const e = 50 / 111_000;
            const k = 1 / Math.cos((y * Math.PI) / 180);
            const sq = { xs: [x - e * k, x + e * k, x + e * k, x - e * k], ys: [y - e, y - e, y + e, y + e] };
            expect(ctx.parks.crosses(sq.xs, sq.ys), `${name} ${s.name} inside a park at ${x}, ${y}`).toBe(true);
          }
        }
      }
    }
    expect(points).toBeGreaterThan(1000);
    expect(inPark / points).toBeLessThan(0.05);
  });
});
