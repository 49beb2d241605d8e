// Every one of the 648 suburbs gets lots, and every lot lies inside its suburb and off the water.
import { describe, expect, it } from "vitest";
import { pointInPolygon } from "../../../src/geo/pip.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/schema.ts";
import { allocate } from "../../../scripts/world/allocate.ts";
import { quadsOf } from "../../../scripts/world/context-packs.ts";
import { characterIn } from "../../../scripts/world/context.ts";
import { loadInputs } from "../../../scripts/world/inputs.ts";
import { censusOf } from "../../../scripts/world/lots.ts";
import { SuburbLayout } from "../../../scripts/world/plan.ts";
import { context, ROOT } from "./small-world.ts";

const ctx = context();
const water = loadInputs(ROOT).water;
const waterBoxes = water.map(boxOf);
const census = ctx.suburbs.map((s) => ({
  suburb: s.index,
  urbanShare: characterIn(ctx, s).urban,
  cells: censusOf(ctx, s),
}));
const { extents } = allocate(census, 20_000);
const plans = ctx.suburbs.map((s, i) => ({ suburb: s, quads: quadsOf(...layout(i)) }));

function layout(i: number): Parameters<typeof quadsOf> {
  const plan = new SuburbLayout(ctx, ctx.suburbs[i] as (typeof ctx.suburbs)[number]).build(
    extents[i] as (typeof extents)[number],
  );
  return [plan.frame, plan.lots];
}

function boxOf(g: AreaGeometry): [number, number, number, number] {
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  const pts = polys.flatMap((p) => p.flat());
  const xs = pts.map((p) => p[0] as number);
  const ys = pts.map((p) => p[1] as number);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number) {
  const o = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
  return (
    o(ax, ay, bx, by, cx, cy) * o(ax, ay, bx, by, dx, dy) < 0 &&
    o(cx, cy, dx, dy, ax, ay) * o(cx, cy, dx, dy, bx, by) < 0
  );
}

describe("the synthetic world's suburbs", () => {
  it("are all 648, each with lots, even in a world asked for 20,000 lots", () => {
    expect(plans.length).toBe(648);
    const empty = plans.filter((p) => p.quads.length === 0).map((p) => p.suburb.name);
    expect(empty).toEqual([]);
  });

  it("hold each lot wholly inside (corners in, no boundary crossing an edge) and off the water (centre out, no shore crossing an edge)", () => {
    const bad: string[] = [];
    let lots = 0;
    for (const { suburb, quads } of plans) {
      const g = suburb.geometry;
      const rings = (g.type === "Polygon" ? [g.coordinates] : g.coordinates).flat();
      for (let q = 0; q < quads.length; q += 8) {
        lots++;
        const xs = [0, 2, 4, 6].map((k) => (quads[q + k] as number) / UNITS_PER_DEGREE);
        const ys = [1, 3, 5, 7].map((k) => (quads[q + k] as number) / UNITS_PER_DEGREE);
        const x = (k: number) => xs[k % 4] as number;
        const y = (k: number) => ys[k % 4] as number;
        if (![0, 1, 2, 3].every((k) => pointInPolygon(g, x(k), y(k)))) bad.push(`${suburb.name}: a corner outside`);
        for (const ring of rings) {
          for (let v = 0; v + 1 < ring.length; v++) {
            const [ax, ay] = ring[v] as [number, number];
            const [bx, by] = ring[v + 1] as [number, number];
            for (let k = 0; k < 4; k++) {
              if (cross(ax, ay, bx, by, x(k), y(k), x(k + 1), y(k + 1)))
                bad.push(`${suburb.name}: crossed by its boundary`);
            }
          }
        }
        const cx = (x(0) + x(2)) / 2;
        const cy = (y(0) + y(2)) / 2;
        const lx0 = Math.min(...xs);
        const lx1 = Math.max(...xs);
        const ly0 = Math.min(...ys);
        const ly1 = Math.max(...ys);
        water.forEach((w, i) => {
          const b = waterBoxes[i] as number[];
          if (lx1 < (b[0] as number) || lx0 > (b[2] as number) || ly1 < (b[1] as number) || ly0 > (b[3] as number))
            return;
          if (pointInPolygon(w, cx, cy)) bad.push(`${suburb.name}: on water`);
          const shores = (w.type === "Polygon" ? [w.coordinates] : w.coordinates).flat();
          for (const ring of shores) {
            for (let v = 0; v + 1 < ring.length; v++) {
              const [ax, ay] = ring[v] as [number, number];
              const [bx, by] = ring[v + 1] as [number, number];
              for (let k = 0; k < 4; k++) {
                if (cross(ax, ay, bx, by, x(k), y(k), x(k + 1), y(k + 1))) bad.push(`${suburb.name}: across a shore`);
              }
            }
          }
        });
      }
    }
    expect(lots).toBeGreaterThan(15_000);
    expect(bad.slice(0, 10)).toEqual([]);
  });
});
