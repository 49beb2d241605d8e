// The world leaves the committed demo pack's lots to it: in dev both are served, and no lot may lie over another.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pointInFeature } from "../../../src/geo/pip.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/schema.ts";
import { quadsOf } from "../../../scripts/world/context-packs.ts";
import { WORLD_DEMO_PACK } from "../../../scripts/world/reserved.ts";
import { ROOT, smallWorld } from "./small-world.ts";

const demo = readPackBytes(readFileSync(`${ROOT}/${WORLD_DEMO_PACK}`), WORLD_DEMO_PACK).layers.get("parcels");
const DEMO_SUBURBS = ["Newtown", "Erskineville", "Epping", "Eastwood", "Carlingford", "Parramatta"];

describe("the world beside the six-suburb demo pack", () => {
  const built = smallWorld(DEMO_SUBURBS, 40_000);

  it("lays no lot over a demo lot (no world lot's corner or centre in a demo lot, no demo lot's corner in a world lot)", () => {
    if (!demo?.index) throw new Error("the demo pack has no indexed parcels layer");
    const overlaps: string[] = [];
    let lots = 0;
    for (const b of built) {
      const q = quadsOf(b.plan.frame, b.plan.lots);
      for (let i = 0; i < q.length / 8; i++) {
        lots++;
        const xs = [0, 2, 4, 6].map((k) => (q[8 * i + k] as number) / UNITS_PER_DEGREE);
        const ys = [1, 3, 5, 7].map((k) => (q[8 * i + k] as number) / UNITS_PER_DEGREE);
        const pts = xs.map((x, k) => [x, ys[k] as number] as const);
        pts.push([xs.reduce((s, x) => s + x, 0) / 4, ys.reduce((s, y) => s + y, 0) / 4]);
        const near = demo.index.search(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
        const worldInDemo = near.some((d) => pts.some(([x, y]) => pointInFeature(demo, d, x, y)));
        const demoInWorld = near.some((d) => demoCorners(d).some(([x, y]) => inQuad(xs, ys, x, y)));
        if (worldInDemo || demoInWorld) overlaps.push(`${b.plan.suburb.name} lot ${i}`);
      }
    }
    expect(lots).toBeGreaterThan(1000);
    expect(overlaps.slice(0, 5)).toEqual([]);
  });

  it("still builds world lots in each demo suburb around the demo's blocks", () => {
    const empty = built.filter((b) => b.plan.lots.length === 0).map((b) => b.plan.suburb.name);
    expect(empty).toEqual([]);
  });
});

function demoCorners(i: number): [number, number][] {
  if (!demo) return [];
  const v0 = demo.ringOffsets[demo.polyOffsets[demo.featureOffsets[i] as number] as number] as number;
  const v1 = demo.ringOffsets[(demo.polyOffsets[demo.featureOffsets[i] as number] as number) + 1] as number;
  const out: [number, number][] = [];
  for (let v = v0; v < v1; v++) out.push([demo.coords[2 * v] as number, demo.coords[2 * v + 1] as number]);
  return out;
}

// Convex quad, either winding: the point is on one side of all four edges.
function inQuad(xs: number[], ys: number[], x: number, y: number): boolean {
  let pos = 0;
  let neg = 0;
  for (let k = 0; k < 4; k++) {
    const ax = xs[k] as number;
    const ay = ys[k] as number;
    const bx = xs[(k + 1) % 4] as number;
    const by = ys[(k + 1) % 4] as number;
    const c = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (c > 0) pos++;
    else if (c < 0) neg++;
  }
  return pos === 0 || neg === 0;
}
